"""Realtime fan-out: SUBSCRIBERS sockets on /realtime/v1, one change, time to the last frame.

Usage: subscribers.py PORT ANON_KEY SERVICE_KEY MODE COUNT ROUNDS [TOKENS_FILE] [-- COMMAND...]

MODE is `shared` (every socket joins with the anon key: one identity, one read per change) or
`people` (socket n joins as the n-th person of TOKENS_FILE: one read per subscriber). Each
socket joins one channel with `locations` INSERT and, as a person, `check_ins` (their own).
Each round inserts a location through /rest/v1 as service_role and waits until every socket
has received it; latency runs from sending that write (its commit is inside it) to the last
frame. With a COMMAND after `--`, it runs while the sockets stay open (the check-in load).
Sockets come from 127.0.0.2, .3, … (100 each), so the per-address socket limit is not hit.
"""
import asyncio, json, statistics, sys, time, urllib.request

import websockets


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


class Subscriber:
    def __init__(self, index):
        self.index = index
        self.seen = {}  # location name -> arrival time

    async def run(self, url, token, joined, closing):
        source = f"127.0.0.{2 + self.index // 100}"
        async with websockets.connect(url, local_addr=(source, 0), max_size=1 << 22, ping_interval=None,
                                      open_timeout=60) as socket:
            bindings = [{"event": "INSERT", "schema": "public", "table": "locations"}]
            payload = {"config": {"postgres_changes": bindings}}
            if token:
                bindings.append({"event": "*", "schema": "public", "table": "check_ins"})
                payload["access_token"] = token
            await socket.send(json.dumps({"topic": "realtime:bench", "event": "phx_join", "payload": payload,
                                          "ref": "1", "join_ref": "1"}))
            heartbeat = asyncio.create_task(self.beat(socket))
            try:
                async for text in socket:
                    frame = json.loads(text)
                    if frame.get("event") == "phx_reply" and frame.get("ref") == "1":
                        if frame["payload"]["status"] != "ok":
                            raise RuntimeError(f"join refused: {frame['payload']}")
                        joined.release()
                    elif frame.get("event") == "postgres_changes":
                        data = frame["payload"]["data"]
                        if data["table"] == "locations":
                            self.seen[data["record"]["name"]] = time.monotonic()
                    if closing.is_set():
                        break
            finally:
                heartbeat.cancel()

    @staticmethod
    async def beat(socket):
        n = 0
        while True:
            await asyncio.sleep(20)
            n += 1
            await socket.send(json.dumps({"topic": "phoenix", "event": "heartbeat", "payload": {}, "ref": f"hb{n}"}))


def insert(port, service_key, name):
    # Published: anon and people who are not editors hear only published rows.
    body = json.dumps({"name": name, "slug": name, "status": "published"}).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}/rest/v1/locations", data=body, method="POST", headers={
        "apikey": service_key, "Authorization": f"Bearer {service_key}", "Content-Type": "application/json",
        "Prefer": "return=minimal"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        assert answer.status == 201, answer.status


async def main():
    args = sys.argv[1:]
    command = args[args.index("--") + 1:] if "--" in args else []
    args = args[:args.index("--")] if "--" in args else args
    port, anon_key, service_key, mode, count, rounds = args[0], args[1], args[2], args[3], int(args[4]), int(args[5])
    tokens = [line.strip() for line in open(args[6])][:count] if mode == "people" else [None] * count
    url = f"ws://127.0.0.1:{port}/realtime/v1/websocket?apikey={anon_key}&vsn=1.0.0"
    subscribers = [Subscriber(n) for n in range(count)]
    joined = asyncio.Semaphore(0)
    closing = asyncio.Event()
    started = time.monotonic()
    tasks = []
    for n, subscriber in enumerate(subscribers):
        tasks.append(asyncio.create_task(subscriber.run(url, tokens[n], joined, closing)))
        if n % 50 == 49:
            await asyncio.sleep(0.05)  # connect in waves, not one burst of SYNs
    for _ in subscribers:
        waiter = asyncio.create_task(joined.acquire())
        done, _ = await asyncio.wait([waiter, *[t for t in tasks if t.done()]], timeout=120, return_when=asyncio.FIRST_COMPLETED)
        if waiter not in done:
            failed = [t for t in tasks if t.done()]
            raise RuntimeError(f"a subscriber failed to join: {failed[0].exception() if failed else 'timeout'}")
    print(f"{count} subscribers ({mode}) joined in {time.monotonic() - started:.1f} s", flush=True)

    last, first, writes = [], [], []
    for round_ in range(rounds):
        name = f"bench-{mode}-{round_}-{int(time.time() * 1000)}"
        sent = time.monotonic()
        await asyncio.to_thread(insert, port, service_key, name)
        writes.append(time.monotonic() - sent)
        deadline = sent + 120
        while any(name not in s.seen for s in subscribers) and time.monotonic() < deadline:
            await asyncio.sleep(0.002)
        arrivals = [s.seen[name] for s in subscribers if name in s.seen]
        if len(arrivals) < count:
            raise RuntimeError(f"round {round_}: {len(arrivals)} of {count} subscribers received the change")
        last.append(max(arrivals) - sent)
        first.append(min(arrivals) - sent)
        await asyncio.sleep(0.2)
    ms = lambda v: f"{v * 1000:.1f} ms"
    print(f"fan-out {mode}: {rounds} changes to {count} subscribers each: last frame p50 {ms(statistics.median(last))}, "
          f"p99 {ms(percentile(last, 0.99))}; first frame p50 {ms(statistics.median(first))}; "
          f"the write itself p50 {ms(statistics.median(writes))}", flush=True)

    if command:
        process = await asyncio.create_subprocess_exec(*command)
        await process.wait()
    closing.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


if __name__ == "__main__":
    asyncio.run(main())
