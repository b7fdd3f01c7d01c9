// tbgen --verify FILE: a verification stopped part way resumes from its record beside the file on the
// next run and checks the same positions in all; a record of another version of the file, or a
// damaged one, is not trusted.
#include "jobs/verify_file.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "support/solved_tables.hpp"

using namespace retro;
namespace fs = std::filesystem;

namespace {

// KQvKR and its sub-tables written into a directory of their own.
fs::path table_directory(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    const Tablebase& tables = retro::test::solved_tables({"KQvKR"});
    for (const char* m : {"KQvK", "KRvK", "KQvKR"})
        write_table(*tables.find(Material::parse(m)), table_path(dir, Material::parse(m)));
    return dir;
}

FileVerification verify(const fs::path& file, const std::atomic<bool>* stop = nullptr,
                        std::vector<std::string>* notes = nullptr,
                        const std::function<void(uint64_t, uint64_t)>& progress = {}) {
    return verify_file(file, stop, progress, [&](const std::string& s) {
        if (notes) notes->push_back(s);
    });
}

}  // namespace

TEST(JobsVerifyFile, AStoppedVerificationResumesWhereItStopped) {
    const fs::path dir = table_directory("retro_verify_resume"),
                   file = table_path(dir, Material::parse("KQvKR"));
    const FileVerification whole = verify(file);
    ASSERT_FALSE(whole.result.mismatch);
    ASSERT_FALSE(fs::exists(verification_record_path(file)));
    const uint64_t keys = whole.keys;
    ASSERT_GT(keys / verify_step_keys(keys / 2), 10u);  // enough steps to stop in the middle

    std::atomic<bool> stop = false;
    const FileVerification first = verify(file, &stop, nullptr, [&](uint64_t done, uint64_t) {
        if (done >= keys / 3) stop = true;
    });
    EXPECT_TRUE(first.result.stopped);
    EXPECT_LT(first.result.checked, whole.result.checked);
    ASSERT_TRUE(fs::exists(verification_record_path(file)));

    stop = false;
    std::vector<std::string> notes;
    const FileVerification second = verify(file, &stop, &notes);
    EXPECT_GT(second.resumed_from, 0u);
    EXPECT_LT(second.resumed_from, keys);
    EXPECT_FALSE(second.result.stopped);
    EXPECT_FALSE(second.result.mismatch);
    EXPECT_EQ(second.result.checked, whole.result.checked);  // earlier runs' positions counted once
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("resuming the verification at"), std::string::npos) << notes[0];
    EXPECT_FALSE(fs::exists(verification_record_path(file)));  // over: the next run starts afresh
    EXPECT_EQ(verify(file).resumed_from, 0u);
}

TEST(JobsVerifyFile, ARecordOfAnotherFileOrDamagedIsNotTrusted) {
    const fs::path dir = table_directory("retro_verify_record"),
                   file = table_path(dir, Material::parse("KQvKR"));
    const uint64_t size = fs::file_size(file);
    for (const std::string& record :
         {"retrograde-verification-1 " + std::to_string(size + 1) + " 0 65536 100",  // another size
          std::string("retrograde-verification-1 12"), std::string("\x01\x02 not a record")}) {
        std::ofstream(verification_record_path(file)) << record;
        std::vector<std::string> notes;
        const FileVerification v = verify(file, nullptr, &notes);
        EXPECT_EQ(v.resumed_from, 0u) << record;
        EXPECT_TRUE(notes.empty()) << record;
        EXPECT_FALSE(v.result.mismatch) << record;
        EXPECT_FALSE(fs::exists(verification_record_path(file))) << record;
    }
}
