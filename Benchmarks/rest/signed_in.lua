-- wrk script: a signed-in read, each request as a different person (their own notifications,
-- which the row policy filters to user_id = auth.uid()).
-- TOKENS_FILE holds one access token per line; ANON_KEY is the apikey; READ_PATH the request;
-- TOKEN_START the first token, so alternating rounds do not start with the same people.
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
  path = os.getenv("READ_PATH")
end

function request()
  index = index + stride
  local token = tokens[(index % #tokens) + 1]
  return wrk.format("GET", path, { ["apikey"] = key, ["Authorization"] = "Bearer " .. token })
end
