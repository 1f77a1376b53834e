"""Idle Realtime sockets: SOCKETS sockets join one channel each, then only send heartbeats.

Usage: idle_sockets.py PORT ANON_KEY SERVER_PID [options]   (see --help)

Each socket connects to /realtime/v1/websocket as supabase-swift and supabase-js v2 do
(`vsn=2.0.0`, array frames), joins `realtime:idle-N` with a `postgres_changes` binding (anon,
`locations` INSERT) and then idles, sending a Phoenix heartbeat every INTERVAL seconds. The
sockets' heartbeats are spread evenly over the interval (10,000 sockets every 30 s: one every
3 ms, about 333 a second), and every reply's latency is kept: from just before the frame is
handed to the socket to the moment the reply is read.

The client must not be what makes the latency. Three checks are printed beside the result:
- the event loop's own lag (a task asking to sleep 2 ms, how late it wakes up): a reply that
  arrives while the loop is busy is read late by that much;
- how late each heartbeat left against its schedule;
- a probe: a separate process (`--probe`) with PROBE_SOCKETS sockets of its own that send a
  heartbeat every second each. It shares nothing with the big client but the server; if the
  big client's p99 were its own doing, the probe's would be lower.

The server's memory is read from /proc/SERVER_PID/status (VmRSS, and VmHWM, the peak) before
the first socket, once all have joined, every second while they idle, and at the end; its CPU
from /proc/SERVER_PID/stat. Sockets come from 127.0.0.2, .3, … (PER_ADDRESS each, under the
server's 256 connections per client address); the probe's from 127.0.1.2. Only loopback.
The last line printed is a JSON summary for the calling script.
"""
import argparse, asyncio, gc, json, os, resource, sys, time, urllib.request

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

TICKS = os.sysconf("SC_CLK_TCK")


def percentile(values, fraction):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def memory(pid):
    """(VmRSS, VmHWM) of `pid` in bytes."""
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                fields[name] = int(value.split()[0]) * 1024
    return fields["VmRSS"], fields["VmHWM"]


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def own_cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def frame_fields(text):
    """(ref, event, payload) of a frame in either framing."""
    frame = json.loads(text)
    if isinstance(frame, list):
        return frame[1], frame[3], frame[4]
    return frame.get("ref"), frame.get("event"), frame.get("payload")


class Socket:
    """One client socket: its connection, the heartbeats in flight and why it ended."""

    __slots__ = ("index", "ws", "sent", "latencies", "joined", "ended", "closing", "beats")

    def __init__(self, index, latencies):
        self.index = index
        self.ws = None
        self.sent = {}  # heartbeat ref -> time sent
        self.latencies = latencies  # shared list of every reply's latency
        self.joined = asyncio.get_running_loop().create_future()
        self.ended = None  # why the server ended it, if it did
        self.closing = False
        self.beats = 0

    async def open(self, url, source, topic, key, vsn):
        self.ws = await connect(url, local_addr=(source, 0), ping_interval=None, open_timeout=120, close_timeout=2,
                                max_size=1 << 20)
        payload = {"config": {"broadcast": {"ack": False, "self": False}, "presence": {"key": ""},
                              "postgres_changes": [{"event": "INSERT", "schema": "public", "table": "locations"}],
                              "private": False},
                   "access_token": key}
        await self.ws.send(encode(vsn, "1", "1", topic, "phx_join", payload))
        asyncio.get_running_loop().create_task(self.read())
        await self.joined

    async def read(self):
        try:
            async for text in self.ws:
                now = time.perf_counter()
                ref, event, payload = frame_fields(text)
                if event != "phx_reply":
                    continue
                if ref == "1":
                    if not self.joined.done():
                        if payload.get("status") == "ok":
                            self.joined.set_result(now)
                        else:
                            self.joined.set_exception(RuntimeError(f"join refused: {payload}"))
                elif ref in self.sent:
                    self.latencies.append(now - self.sent.pop(ref))
        except ConnectionClosed:
            pass
        except Exception as error:  # a frame this client cannot read: count it as an end
            self.ended = f"client error: {error!r}"
        if not self.closing and self.ended is None:
            close = self.ws.close_rcvd
            self.ended = f"closed by the server: {close.code} {close.reason}" if close else "connection lost"
        if not self.joined.done():
            self.joined.set_exception(RuntimeError(self.ended))

    async def beat(self, vsn):
        self.beats += 1
        ref = f"h{self.beats}"
        self.sent[ref] = time.perf_counter()
        await self.ws.send(encode(vsn, None, ref, "phoenix", "heartbeat", {}))


def encode(vsn, join_ref, ref, topic, event, payload):
    if vsn == "2.0.0":
        return json.dumps([join_ref, ref, topic, event, payload])
    return json.dumps({"join_ref": join_ref, "ref": ref, "topic": topic, "event": event, "payload": payload})


async def watch_loop(lags, stop):
    """How late the event loop wakes a task that asked for 2 ms."""
    while not stop.is_set():
        asked = time.perf_counter()
        await asyncio.sleep(0.002)
        lags.append(time.perf_counter() - asked - 0.002)


async def watch_memory(pid, samples, stop):
    while not stop.is_set():
        samples.append(memory(pid)[0])
        await asyncio.sleep(1)


def rss_by_interval(samples, interval):
    """The server's RSS at the end of each heartbeat interval (every socket beat once more),
    to tell memory that settles from memory that keeps growing."""
    step = max(int(interval), 1)
    return [samples[min(n, len(samples) - 1)] for n in range(step, len(samples) + step - 1, step)]


async def open_all(args, url, count, first_address, per_address, latencies):
    """Opens and joins `count` sockets, at most CONNECTING at a time; returns (sockets, refusals)."""
    gate = asyncio.Semaphore(args.connecting)
    sockets = [Socket(n, latencies) for n in range(count)]
    refusals = []

    async def one(socket):
        async with gate:
            n = first_address + socket.index // per_address
            source = f"127.0.{n // 256}.{n % 256}"
            try:
                await socket.open(url, source, f"realtime:idle-{socket.index}", args.key, args.vsn)
            except Exception as error:
                refusals.append(f"{type(error).__name__}: {error}")
                socket.closing = True
                if socket.ws is not None:
                    socket.ws.transport.abort()

    await asyncio.gather(*(one(s) for s in sockets))
    return [s for s in sockets if s.joined.done() and not s.joined.exception()], refusals


async def heartbeats(sockets, interval, duration, vsn, schedule_lag):
    """Every socket beats every `interval` s, evenly spread, until `duration` s have passed."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    count = len(sockets)
    beat = 0
    while True:
        due = start + (beat // count) * interval + (beat % count) * interval / count
        if due - start >= duration:
            return
        delay = due - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        # Everything due by now leaves at once (the loop wakes every few ms, not every 3 ms).
        now = loop.time()
        while True:
            due = start + (beat // count) * interval + (beat % count) * interval / count
            if due > now or due - start >= duration:
                break
            socket = sockets[beat % count]
            beat += 1
            if socket.ended is not None:
                continue
            schedule_lag.append(now - due)
            try:
                await socket.beat(vsn)
            except ConnectionClosed:
                pass


def ms(value):
    return f"{value * 1000:.1f} ms"


def mib(value):
    return f"{value / 1048576:.0f} MiB"


async def probe(args):
    """The independent probe: a few sockets, a heartbeat a second each, only latencies."""
    url = f"ws://127.0.0.1:{args.port}/realtime/v1/websocket?apikey={args.key}&vsn={args.vsn}"
    latencies = []
    sockets, refusals = await open_all(args, url, args.sockets, 258, args.per_address, latencies)
    await heartbeats(sockets, args.interval, args.duration, args.vsn, [])
    await asyncio.sleep(2)
    print(json.dumps({"probe_sockets": len(sockets), "refused": len(refusals), "latencies": latencies}), flush=True)
    for socket in sockets:
        socket.closing = True
        socket.ws.transport.abort()


async def main(args):
    url = f"ws://127.0.0.1:{args.port}/realtime/v1/websocket?apikey={args.key}&vsn={args.vsn}"
    stop = asyncio.Event()
    lags, schedule_lag, latencies, samples = [], [], [], []
    idle_rss = memory(args.pid)[0]
    started, server_cpu, client_cpu = time.perf_counter(), cpu_seconds(args.pid), own_cpu_seconds()
    sockets, refusals = await open_all(args, url, args.sockets, 2, args.per_address, latencies)
    join_seconds = time.perf_counter() - started
    join_server_cpu, join_client_cpu = cpu_seconds(args.pid) - server_cpu, own_cpu_seconds() - client_cpu
    print(f"{len(sockets)} of {args.sockets} sockets joined in {join_seconds:.1f} s (server CPU {join_server_cpu:.1f} s, "
          f"client CPU {join_client_cpu:.1f} s)" + (f"; {len(refusals)} refused, e.g. {refusals[0]}" if refusals else ""), flush=True)
    await asyncio.sleep(2)  # let the joins' work settle before reading memory
    # Python's cycle collector walking 10,000 sockets' objects would stall this loop (and so
    # delay reading replies) for up to a second: what exists now is never collected.
    gc.collect()
    gc.freeze()
    joined_rss = memory(args.pid)[0]

    watchers = [asyncio.create_task(watch_loop(lags, stop)), asyncio.create_task(watch_memory(args.pid, samples, stop))]
    probe_process = None
    if args.probe_sockets:
        probe_process = await asyncio.create_subprocess_exec(
            sys.executable, __file__, str(args.port), args.key, str(args.pid), "--probe", "--sockets", str(args.probe_sockets),
            "--interval", "1", "--duration", str(args.duration), "--vsn", args.vsn, stdout=asyncio.subprocess.PIPE)
    server_cpu, client_cpu, idle_started = cpu_seconds(args.pid), own_cpu_seconds(), time.perf_counter()
    await heartbeats(sockets, args.interval, args.duration, args.vsn, schedule_lag)
    await asyncio.sleep(2)  # the last replies
    idle_seconds = time.perf_counter() - idle_started
    server_cpu, client_cpu = cpu_seconds(args.pid) - server_cpu, own_cpu_seconds() - client_cpu
    stop.set()
    await asyncio.gather(*watchers)
    end_rss, peak_rss = memory(args.pid)
    probe_latencies = []
    if probe_process:
        output, _ = await probe_process.communicate()
        probe_latencies = json.loads(output.decode().strip().splitlines()[-1])["latencies"]

    unanswered = sum(len(s.sent) for s in sockets)
    ended = [s.ended for s in sockets if s.ended is not None]
    drop_seconds = await drop_all(args, sockets)
    beats = sum(s.beats for s in sockets)
    summary = {
        "sockets": args.sockets, "joined": len(sockets), "refused": len(refusals), "closed": len(ended),
        "join_seconds": round(join_seconds, 2), "heartbeats": beats, "unanswered": unanswered,
        "rss_idle": idle_rss, "rss_joined": joined_rss, "rss_max_idle": max(samples, default=joined_rss), "rss_end": end_rss,
        "rss_peak": peak_rss, "bytes_per_socket": round((joined_rss - idle_rss) / max(len(sockets), 1)),
        "p50_ms": round(percentile(latencies, 0.5) * 1000, 2), "p99_ms": round(percentile(latencies, 0.99) * 1000, 2),
        "max_ms": round(max(latencies, default=float("nan")) * 1000, 2),
        "probe_p50_ms": round(percentile(probe_latencies, 0.5) * 1000, 2),
        "probe_p99_ms": round(percentile(probe_latencies, 0.99) * 1000, 2),
        "loop_lag_p99_ms": round(percentile(lags, 0.99) * 1000, 2), "schedule_lag_p99_ms": round(percentile(schedule_lag, 0.99) * 1000, 2),
        "server_cpu_per_heartbeat_us": round(server_cpu / max(beats, 1) * 1e6, 1),
        "server_cpu_share": round(server_cpu / idle_seconds, 3), "client_cpu_share": round(client_cpu / idle_seconds, 3),
        "join_server_cpu": round(join_server_cpu, 1), "join_client_cpu": round(join_client_cpu, 1),
        "drop_seconds": round(drop_seconds, 2), "rss_by_interval": rss_by_interval(samples, args.interval),
    }
    print(f"heartbeats: {beats} in {args.duration:.0f} s ({beats / args.duration:.0f}/s), {unanswered} unanswered; "
          f"reply p50 {ms(percentile(latencies, 0.5))}, p99 {ms(percentile(latencies, 0.99))}, max {ms(max(latencies, default=0))}")
    if probe_latencies:
        print(f"probe ({args.probe_sockets} sockets in another process, 1 heartbeat/s each): {len(probe_latencies)} replies, "
              f"p50 {ms(percentile(probe_latencies, 0.5))}, p99 {ms(percentile(probe_latencies, 0.99))}")
    print(f"client: event-loop lag p99 {ms(percentile(lags, 0.99))}, max {ms(max(lags, default=0))}; heartbeats late against "
          f"their schedule p99 {ms(percentile(schedule_lag, 0.99))}; client CPU {summary['client_cpu_share']:.0%} of a core")
    print(f"server: RSS idle {mib(idle_rss)}, all joined {mib(joined_rss)}, most while idling {mib(summary['rss_max_idle'])}, "
          f"end {mib(end_rss)}, peak (VmHWM) {mib(peak_rss)}; {summary['bytes_per_socket']} bytes per socket; "
          f"CPU {summary['server_cpu_share']:.0%} of a core, {summary['server_cpu_per_heartbeat_us']} µs per heartbeat "
          f"(all its CPU while idling over the heartbeats); RSS after each {args.interval:.0f} s: "
          + ", ".join(mib(value) for value in summary["rss_by_interval"]))
    if ended:
        print(f"{len(ended)} sockets ended while idle, e.g. {ended[0]}")
    print(f"all {len(sockets)} sockets dropped at once (reset): the server counted none open after {drop_seconds:.2f} s")
    print(json.dumps(summary), flush=True)


async def drop_all(args, sockets):
    """Resets every socket at once (a network failure, a client fleet restarting) and returns
    how long until the server's `realtime_connections` gauge reads 0."""
    started = time.perf_counter()
    for socket in sockets:
        socket.closing = True
        socket.ws.transport.abort()
    while time.perf_counter() - started < 120:
        await asyncio.sleep(0.1)
        text = await asyncio.to_thread(metrics, args.port)
        if any(line.split()[-1] in ("0", "0.0") for line in text.splitlines() if line.startswith("realtime_connections")):
            return time.perf_counter() - started
    return float("nan")


def metrics(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=60) as answer:
        return answer.read().decode()


def arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("port", type=int)
    parser.add_argument("key", help="the anon key")
    parser.add_argument("pid", type=int, help="the server's process id (its /proc is read)")
    parser.add_argument("--sockets", type=int, default=10_000)
    parser.add_argument("--duration", type=float, default=90, help="seconds of idling after every socket joined")
    parser.add_argument("--interval", type=float, default=30, help="seconds between one socket's heartbeats")
    parser.add_argument("--per-address", type=int, default=200, help="sockets per loopback source address")
    parser.add_argument("--connecting", type=int, default=100, help="sockets connecting at once")
    parser.add_argument("--vsn", default="2.0.0", choices=["1.0.0", "2.0.0"])
    parser.add_argument("--probe-sockets", type=int, default=10, help="sockets of the probe process (0: none)")
    parser.add_argument("--probe", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args()


if __name__ == "__main__":
    arguments_ = arguments()
    asyncio.run(probe(arguments_) if arguments_.probe else main(arguments_))
