-- wrk script for bench/serve_bench.py. REQUESTS_FILE holds one prepared request per
-- line: method, path, cookie, csrf token, body, tab-separated. GET scenarios cycle
-- through the lines; POST scenarios send each line once (each carries its own
-- submission token), thread t taking lines t, t + threads, ... and stopping when
-- its share is used up.
local threads, counter = {}, 1

function setup(thread)
  thread:set("id", counter)
  thread:set("threads", 0)
  table.insert(threads, thread)
  counter = counter + 1
end

function init(args)
  lines = {}
  for line in io.lines(os.getenv("REQUESTS_FILE")) do
    local method, path, cookie, csrf, body = line:match("^(%S+)\t(%S+)\t([^\t]*)\t([^\t]*)\t(.*)$")
    table.insert(lines, {method = method, path = path, cookie = cookie, csrf = csrf, body = body})
  end
  once = os.getenv("ONCE") == "1"
  nthreads = tonumber(os.getenv("THREADS"))
  index = id
  sent = 0
end

function request()
  if index > #lines then
    if once then
      wrk.thread:stop()
      return wrk.format("GET", "/healthz")
    end
    index = id
  end
  local item = lines[index]
  index = index + nthreads
  sent = sent + 1
  local headers = {Cookie = item.cookie}
  if item.method == "POST" then
    headers["X-CSRFToken"] = item.csrf
    headers["HX-Request"] = "true"
    headers["Content-Type"] = "application/x-www-form-urlencoded"
    return wrk.format("POST", item.path, headers, item.body)
  end
  return wrk.format("GET", item.path, headers)
end

function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    "RESULT requests=%d duration_us=%d status_errors=%d socket_errors=%d p50_us=%d p99_us=%d\n",
    summary.requests, summary.duration, errors.status,
    errors.connect + errors.read + errors.write + errors.timeout,
    latency:percentile(50), latency:percentile(99)))
end
