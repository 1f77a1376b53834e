-- wrk script: the web app's home page, GET / signed in, each request as a different person
-- (their session cookie, which the page checks against auth_sessions before reading their
-- profile, escalation and active alert).
-- COOKIES_FILE holds one line a person, "<cookie value> <form token>" (web.py cookies);
-- COOKIE_START the first line, so alternating rounds do not start with the same people.
local counter = 0

function setup(thread)
  thread:set("offset", counter)
  counter = counter + 1
end

function init(args)
  cookies = {}
  for line in io.lines(os.getenv("COOKIES_FILE")) do
    cookies[#cookies + 1] = "lifesignal=" .. line:match("^(%S+)")
  end
  index = offset + tonumber(os.getenv("COOKIE_START") or "0")
  stride = tonumber(os.getenv("WRK_THREADS") or "2")
end

function request()
  index = index + stride
  return wrk.format("GET", "/", { ["Cookie"] = cookies[(index % #cookies) + 1] })
end
