"""A stand-in for Apple Push Notification service, for LifeSignal's APNs client tests.

    python apns_standin.py DIR PUBLIC_KEY_PEM TEAM_ID KEY_ID TOPIC

Serves HTTP/2 only (ALPN `h2`) over TLS on 127.0.0.1 with a self-signed certificate for
127.0.0.1 that it makes at start and writes to DIR/cert.pem, so a test can trust it.
`POST /3/device/<hex token>` is checked as APNs checks it: the provider token (an ES256 JWT
whose `kid` is KEY_ID and `iss` TEAM_ID, signed by the key whose public half is PUBLIC_KEY_PEM,
at most an hour old), `apns-topic` (TOPIC), `apns-push-type`, `apns-priority`, `apns-expiration`,
`apns-collapse-id` (at most 64 bytes), `apns-id` (a UUID), a JSON payload of at most 4096 bytes
with `aps.alert.title`/`body`, an `interruption-level`, and for `critical` a sound dictionary
with `critical: 1`. Answers 200 with `apns-id`, or APNs' error JSON `{"reason": …}`.

Some device tokens fail on purpose, by their first four hex digits:
    400b  400 BadDeviceToken           4001  400 DeviceTokenNotForTopic
    4100  410 Unregistered (+timestamp) 4290  429 TooManyRequests
    5000  500 InternalServerError      5030  503 ServiceUnavailable
    4030  403 ExpiredProviderToken for the first provider token it is sent with (any other is
          accepted): a token Apple stopped taking
    4031  403 ExpiredProviderToken always
    dead  no answer at all (the stream stays open)

Prints `READY <port>`, then one JSON line per request: the path, headers, the JWT's header and
claims and whether it verified, the payload, the ALPN protocol, which connection (1, 2, …), and the status and reason
answered. Runs until stdin closes.
"""
import asyncio
import json
import re
import ssl
import sys
import time
import uuid

import jwt
from h2.config import H2Configuration
from h2.connection import H2Connection
from h2.exceptions import ProtocolError
from h2.events import ConnectionTerminated, DataReceived, RequestReceived, StreamEnded, StreamReset
from standin_certificate import write_self_signed

DIRECTORY, PUBLIC_KEY, TEAM_ID, KEY_ID, TOPIC = sys.argv[1:6]
TOKEN = re.compile(r"^[0-9a-fA-F]{2,200}$")
UUID_FORMAT = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
FAILURES = {
    "400b": (400, "BadDeviceToken"), "4001": (400, "DeviceTokenNotForTopic"), "4100": (410, "Unregistered"),
    "4290": (429, "TooManyRequests"), "5000": (500, "InternalServerError"), "5030": (503, "ServiceUnavailable"),
    "4031": (403, "ExpiredProviderToken"),
}
# Device token -> the provider token it refused first (the `4030` tokens).
refused_once = {}
connections = 0


def tls_context():
    cert_path, key_path = write_self_signed(DIRECTORY)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert_path, key_path)
    context.set_alpn_protocols(["h2"])
    return context


def check_provider_token(authorization, record):
    """None if the provider token is good, else APNs' (status, reason)."""
    if not authorization.startswith("bearer "):
        return 403, "MissingProviderToken"
    token = authorization[len("bearer "):]
    record["jwt"] = token
    try:
        header = jwt.get_unverified_header(token)
        record["jwt_header"] = header
        claims = jwt.decode(token, PUBLIC_KEY, algorithms=["ES256"], options={"verify_iat": False, "require": ["iss", "iat"]})
        record["jwt_claims"] = claims
    except jwt.PyJWTError as error:
        record["jwt_error"] = str(error)
        return 403, "InvalidProviderToken"
    record["jwt_verified"] = True
    if header.get("alg") != "ES256" or header.get("kid") != KEY_ID or claims.get("iss") != TEAM_ID:
        return 403, "InvalidProviderToken"
    iat = claims.get("iat")
    if not isinstance(iat, int) or iat > time.time() + 60:
        return 403, "InvalidProviderToken"
    if time.time() - iat > 3600:
        return 403, "ExpiredProviderToken"
    return None


def check_payload(body, record):
    """None if the payload is one APNs would deliver as an alert, else (status, reason)."""
    if len(body) > 4096:
        return 413, "PayloadTooLarge"
    try:
        payload = json.loads(body)
    except ValueError:
        return 400, "BadPayload"
    record["payload"] = payload
    aps = payload.get("aps") if isinstance(payload, dict) else None
    if not isinstance(aps, dict) or not isinstance(aps.get("alert"), dict):
        return 400, "PayloadEmpty"
    alert = aps["alert"]
    if not isinstance(alert.get("title"), str) or not isinstance(alert.get("body"), str):
        return 400, "PayloadEmpty"
    level = aps.get("interruption-level", "active")
    # A stand-in's own reason: Apple would deliver it, just not as asked.
    if level not in ("passive", "active", "time-sensitive", "critical"):
        return 400, "StandInBadInterruptionLevel"
    sound = aps.get("sound")
    if level == "critical" and not (isinstance(sound, dict) and sound.get("critical") == 1 and isinstance(sound.get("name"), str)):
        return 400, "StandInBadCriticalSound"
    if level != "critical" and sound is not None and not isinstance(sound, str):
        return 400, "StandInBadSound"
    if any(not isinstance(value, str) for key, value in payload.items() if key != "aps"):
        return 400, "StandInDataNotString"
    return None


def answer_for(method, path, headers, body, record):
    """(status, reason or None) for one request, checked in APNs' order."""
    if method != "POST":
        return 405, "MethodNotAllowed"
    if not path.startswith("/3/device/"):
        return 404, "BadPath"
    device = path[len("/3/device/"):]
    record["device_token"] = device
    failure = check_provider_token(headers.get("authorization", ""), record)
    if failure:
        return failure
    if headers.get("apns-topic") != TOPIC:
        return 400, "TopicDisallowed" if headers.get("apns-topic") else "MissingTopic"
    if headers.get("apns-push-type") not in ("alert", "background", "voip", "complication", "fileprovider", "mdm", "location", "liveactivity", "pushtotalk"):
        return 400, "InvalidPushType"
    if headers.get("apns-priority", "10") not in ("1", "5", "10"):
        return 400, "BadPriority"
    if not re.fullmatch(r"\d+", headers.get("apns-expiration", "0")):
        return 400, "BadExpirationDate"
    collapse = headers.get("apns-collapse-id")
    if collapse is not None and len(collapse.encode()) > 64:
        return 400, "BadCollapseId"
    if "apns-id" in headers and not UUID_FORMAT.match(headers["apns-id"]):
        return 400, "BadMessageId"
    if not TOKEN.match(device) or len(device) % 2:
        return 400, "BadDeviceToken"
    failure = check_payload(body, record)
    if failure:
        return failure
    prefix = device[:4].lower()
    if prefix == "4030":
        first = refused_once.setdefault(device, record["jwt"])
        if first == record["jwt"]:
            return 403, "ExpiredProviderToken"
    if prefix in FAILURES:
        return FAILURES[prefix]
    return 200, None


class Connection:
    def __init__(self, reader, writer):
        global connections
        connections += 1
        # Which connection a request came on: a client should multiplex one, as Apple asks.
        self.number = connections
        self.reader, self.writer = reader, writer
        self.h2 = H2Connection(config=H2Configuration(client_side=False, header_encoding="utf-8"))
        self.streams = {}
        ssl_object = writer.get_extra_info("ssl_object")
        self.alpn = ssl_object.selected_alpn_protocol() if ssl_object else None

    async def run(self):
        self.h2.initiate_connection()
        await self.flush()
        try:
            while True:
                data = await self.reader.read(65536)
                if not data:
                    break
                for event in self.h2.receive_data(data):
                    if isinstance(event, RequestReceived):
                        self.streams[event.stream_id] = {"headers": dict(event.headers), "body": b""}
                    elif isinstance(event, DataReceived):
                        self.h2.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                        if event.stream_id in self.streams:
                            self.streams[event.stream_id]["body"] += event.data
                    elif isinstance(event, StreamEnded):
                        self.respond(event.stream_id)
                    elif isinstance(event, StreamReset):
                        self.streams.pop(event.stream_id, None)
                    elif isinstance(event, ConnectionTerminated):
                        return
                await self.flush()
        except (ConnectionError, ssl.SSLError, ProtocolError, asyncio.CancelledError):
            # A client that went away, or the stand-in stopping: nothing to answer.
            pass
        finally:
            self.writer.close()

    def respond(self, stream_id):
        stream = self.streams.pop(stream_id, None)
        if stream is None:
            return
        headers = stream["headers"]
        method, path = headers.pop(":method", ""), headers.pop(":path", "")
        for pseudo in (":scheme", ":authority"):
            headers.pop(pseudo, None)
        record = {"method": method, "path": path, "alpn": self.alpn, "connection": self.number, "headers": headers, "jwt_verified": False,
                  "body_bytes": len(stream["body"])}
        if path.startswith("/3/device/dead"):
            record["status"] = None
            print(json.dumps(record), flush=True)
            return
        status, reason = answer_for(method, path, headers, stream["body"], record)
        record["status"], record["reason"] = status, reason
        print(json.dumps(record), flush=True)
        apns_id = headers.get("apns-id") or str(uuid.uuid4())
        response_headers = [(":status", str(status)), ("apns-id", apns_id)]
        if status == 200:
            self.h2.send_headers(stream_id, response_headers, end_stream=True)
            return
        body = {"reason": reason}
        if status == 410:
            body["timestamp"] = int(time.time() * 1000) - 86_400_000
        data = json.dumps(body).encode()
        self.h2.send_headers(stream_id, response_headers + [("content-type", "application/json"),
                                                             ("content-length", str(len(data)))])
        self.h2.send_data(stream_id, data, end_stream=True)

    async def flush(self):
        data = self.h2.data_to_send()
        if data:
            self.writer.write(data)
            await self.writer.drain()


async def main():
    context = tls_context()

    async def accept(reader, writer):
        await Connection(reader, writer).run()

    server = await asyncio.start_server(accept, "127.0.0.1", 0, ssl=context)
    print("READY %d" % server.sockets[0].getsockname()[1], flush=True)
    # Runs until stdin closes (the test ends).
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    server.close()


if __name__ == "__main__":
    asyncio.run(main())
