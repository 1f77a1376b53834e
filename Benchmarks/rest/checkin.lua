-- wrk script: POST /functions/v1/check-in, each request as a different person (a repeat
-- check-in within 5 minutes is refused as too soon, which would measure the refusal).
-- TOKENS_FILE holds one access token per line; ANON_KEY is the apikey; TOKEN_START the first
-- token, so that a second run in five minutes does not start with the same people.
local counter = 0

function setup(thread)
  thread:set("offset", counter)
  counter = counter + 1
end

function init(args)
  tokens = {}
  for line in io.lines(os.getenv("TOKENS_FILE")) do tokens[#tokens + 1] = line end
  index = offset + tonumber(os.getenv("TOKEN_START") or "0")
  stride = tonumber(os.getenv("WRK_THREADS") or "2")
  key = os.getenv("ANON_KEY")
end

function request()
  index = index + stride
  local token = tokens[(index % #tokens) + 1]
  return wrk.format("POST", "/functions/v1/check-in",
    { ["apikey"] = key, ["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json" }, "{}")
end
