-- wrk's requests for load_test.py: GET /standard over KQvK and KQvKR positions in turn (every
-- answer probes the position and each of its moves), with a mainline now and then.
local targets = {
  "/standard?fen=8/8/8/4k3/8/8/8/4K2Q_w_-_-_0_1",
  "/standard?fen=8/8/8/8/2r5/8/2k5/K6Q_w_-_-_0_1",
  "/standard?fen=8/8/8/8/2r5/8/8/K1k4Q_b_-_-_0_1",
  "/standard?fen=8/8/8/8/8/1r6/6Q1/k1K5_b_-_-_0_1",
  "/standard?fen=8/8/8/8/8/8/6Q1/krK5_w_-_-_0_1",
  "/standard?fen=8/8/8/3k4/8/8/2R5/K7_b_-_-_0_1",
  "/standard/mainline?fen=8/8/8/4k3/8/8/8/4K2Q_b_-_-_0_1",
}
local i = 0
request = function()
  i = i % #targets + 1
  return wrk.format("GET", targets[i])
end
