// The write options of tbgen and tbpack: what each combination of --codec, --level and --shipping
// asks of the writer, and the values refused.
#include "cli/write_options.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace po = boost::program_options;
using namespace retro;

namespace {

WriteOptions parsed(std::vector<std::string> args) {
    po::options_description options;
    add_write_options(options);
    args.insert(args.begin(), "tbgen");
    std::vector<const char*> argv;
    for (const std::string& a : args) argv.push_back(a.c_str());
    po::variables_map vm;
    po::store(po::parse_command_line(int(argv.size()), argv.data(), options), vm);
    po::notify(vm);
    return write_options_from(vm);
}

}  // namespace

TEST(CliWriteOptions, TheShippingFormTakesXzsExtremePresetUnlessALevelIsGiven) {
    const WriteOptions job = parsed({});
    EXPECT_EQ(job.codec, Codec::Zstd);
    EXPECT_EQ(job.level, -1);
    EXPECT_FALSE(job.xz_extreme);
    EXPECT_EQ(job.keep, WriteOptions::Sides::Both);

    const WriteOptions shipping = parsed({"--shipping"});
    EXPECT_EQ(shipping.codec, Codec::Xz);
    EXPECT_EQ(shipping.level, -1);  // xz's default, 6
    EXPECT_TRUE(shipping.xz_extreme);
    EXPECT_EQ(shipping.block_entries, SHIPPING_BLOCK_ENTRIES);
    EXPECT_EQ(shipping.keep, WriteOptions::Sides::Smaller);

    const WriteOptions plain = parsed({"--shipping", "--level", "6"});
    EXPECT_EQ(plain.level, 6);
    EXPECT_FALSE(plain.xz_extreme);
    EXPECT_FALSE(parsed({"--shipping", "--codec", "zstd"}).xz_extreme);

    const WriteOptions extreme = parsed({"--codec", "xz", "--level", "9e"});
    EXPECT_EQ(extreme.level, 9);
    EXPECT_TRUE(extreme.xz_extreme);
    EXPECT_EQ(extreme.keep, WriteOptions::Sides::Both);
    EXPECT_EQ(parsed({"--level", "3"}).level, 3);
}

TEST(CliWriteOptions, BadLevelsAreRefusedNamingWhatIsTaken) {
    const auto refusal = [](std::vector<std::string> args) {
        try {
            parsed(std::move(args));
        } catch (const std::runtime_error& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(refusal({"--level", "15e"}), "--level for zstd takes 0 to 22, not '15e'");
    EXPECT_EQ(refusal({"--codec", "xz", "--level", "10"}),
              "--level for xz takes 0 to 9, or 0e to 9e for the extreme preset, not '10'");
    for (const char* bad : {"", "e", "6x", "+6", "ee", "123"})
        EXPECT_NE(refusal({"--codec", "xz", "--level", bad}).find("--level for xz takes"), std::string::npos)
            << bad;
    EXPECT_EQ(refusal({"--codec", "lz4"}), "--codec takes xz, zstd or zlib, not 'lz4'");
}
