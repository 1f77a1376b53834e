-- wrk script: the home page's check-in form, POST /check-in as a browser posts it without
-- script (form-encoded, Sec-Fetch-Site: same-origin, the session's form token and a fresh
-- idempotency key), each request as a different person; the page answers 303 to /?said=….
-- A person checked in within 5 minutes is answered "already" (also a 303), which is other
-- work: run.sh resets check-ins between rounds and checks that no request got that answer.
-- COOKIES_FILE holds one line a person, "<cookie value> <form token>" (web.py cookies);
-- KEY_PREFIX starts each key (unique per run).
local counter = 0

function setup(thread)
  thread:set("offset", counter)
  counter = counter + 1
end

function init(args)
  cookies, tokens = {}, {}
  for line in io.lines(os.getenv("COOKIES_FILE")) do
    local cookie, token = line:match("^(%S+) (%S+)")
    cookies[#cookies + 1] = "lifesignal=" .. cookie
    tokens[#tokens + 1] = token
  end
  index = offset + tonumber(os.getenv("COOKIE_START") or "0")
  stride = tonumber(os.getenv("WRK_THREADS") or "2")
  prefix = os.getenv("KEY_PREFIX") or "bench"
end

function request()
  index = index + stride
  local n = (index % #cookies) + 1
  return wrk.format("POST", "/check-in", {
    ["Cookie"] = cookies[n],
    ["Content-Type"] = "application/x-www-form-urlencoded",
    ["Sec-Fetch-Site"] = "same-origin",
  }, "_csrf=" .. tokens[n] .. "&key=" .. prefix .. "-" .. index)
end
