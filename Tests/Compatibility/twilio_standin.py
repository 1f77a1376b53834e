"""A stand-in for Twilio's Messages API, for LifeSignal's SMS client tests.

    python twilio_standin.py ACCOUNT_SID AUTH_TOKEN

Serves `POST /2010-04-01/Accounts/<sid>/Messages.json` on 127.0.0.1 as Twilio does: HTTP Basic
auth with the account SID and auth token, a form body (`To`, `From` or `MessagingServiceSid`,
`Body`, optional `StatusCallback`), 201 with the message's JSON, or Twilio's error JSON
`{code, message, more_info, status}`. Some numbers fail on purpose: +15559990000 is invalid
(400, 21211), +15559990001 has replied STOP (400, 21610), +15559990002 is rate limited
(429, 20429), +15559990003 meets a server error (500); a number starting +1555998 meets a server
error on its first three messages and is served after (a provider down for a while); a number
starting +1555997 finds the stand-in silent for a full minute on its first message (no answer,
then the connection closes; the message is not taken, and a `{"hung": <number>}` line says so),
and is served after; a number starting +1555996 is answered after 0.3 s (a slow provider). With a
`StatusCallback` on 127.0.0.1, the stand-in then posts `delivered` to it, signed with `X-Twilio-Signature` as
Twilio signs it. Prints `READY <port>`, then one JSON line
per request: the path, whether the credentials were right, and the form fields. Runs until
stdin closes.
"""
import base64
import hashlib
import hmac
import json
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlparse
from urllib.request import Request, urlopen

SID, TOKEN = sys.argv[1], sys.argv[2]
FLAKY_PREFIX, FLAKY_TIMES = "+1555998", 3
HANG_PREFIX, HANG_SECONDS = "+1555997", 60
SLOW_PREFIX, SLOW_SECONDS = "+1555996", 0.3
flaky_seen = {}
hang_seen = {}
lock = threading.Lock()
FAILURES = {
    "+15559990000": (400, 21211, "The 'To' number +15559990000 is not a valid phone number."),
    "+15559990001": (400, 21610, "Attempt to send to unsubscribed recipient"),
    "+15559990002": (429, 20429, "Too Many Requests"),
    "+15559990003": (500, 20500, "Internal Server Error"),
}


def record(line):
    """One JSON line, whole: the server answers on several threads, and two prints at once
    would interleave their text and newlines."""
    with lock:
        sys.stdout.write(json.dumps(line) + "\n")
        sys.stdout.flush()


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def error(self, status, code, message):
        self.answer(status, {"code": code, "message": message, "more_info": "https://www.twilio.com/docs/errors/%d" % code,
                             "status": status})

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        fields = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode(), keep_blank_values=True).items()}
        expected = "Basic " + base64.b64encode(("%s:%s" % (SID, TOKEN)).encode()).decode()
        authorized = self.headers.get("Authorization") == expected
        record({"path": self.path, "authorized": authorized, "fields": fields, "content_type": self.headers.get("Content-Type")})
        if self.path != "/2010-04-01/Accounts/%s/Messages.json" % SID:
            return self.error(404, 20404, "The requested resource was not found")
        if not authorized:
            return self.error(401, 20003, "Authenticate")
        to = fields.get("To", "")
        if to in FAILURES:
            return self.error(*FAILURES[to])
        if to.startswith(FLAKY_PREFIX):
            with lock:
                flaky_seen[to] = flaky_seen.get(to, 0) + 1
                failing = flaky_seen[to] <= FLAKY_TIMES
            if failing:
                return self.error(500, 20500, "Internal Server Error")
        if to.startswith(HANG_PREFIX):
            with lock:
                hang_seen[to] = hang_seen.get(to, 0) + 1
                hanging = hang_seen[to] == 1
            if hanging:
                record({"hung": to})
                time.sleep(HANG_SECONDS)
                self.close_connection = True
                return
        if to.startswith(SLOW_PREFIX):
            time.sleep(SLOW_SECONDS)
        if not fields.get("Body") or not (fields.get("From") or fields.get("MessagingServiceSid")):
            return self.error(400, 21602, "Message body is required.")
        sid = "SM" + uuid.uuid4().hex
        self.answer(201, {"sid": sid, "status": "queued", "to": to, "from": fields.get("From"),
                          "body": fields["Body"], "error_code": None, "error_message": None, "account_sid": SID})
        # Callbacks go only to this machine (tests never reach out further).
        if urlparse(fields.get("StatusCallback", "")).hostname in ("127.0.0.1", "localhost"):
            threading.Thread(target=report, args=(fields["StatusCallback"], sid, to), daemon=True).start()


def report(url, sid, to):
    """Posts the message's final status as Twilio does: a form body, signed with HMAC-SHA1 of
    the URL followed by every parameter's name and value in name order."""
    params = {"MessageSid": sid, "SmsSid": sid, "AccountSid": SID, "MessageStatus": "delivered", "SmsStatus": "delivered",
              "To": to}
    text = url + "".join(k + params[k] for k in sorted(params))
    signature = base64.b64encode(hmac.new(TOKEN.encode(), text.encode(), hashlib.sha1).digest()).decode()
    request = Request(url, data=urlencode(params).encode(), method="POST",
                      headers={"Content-Type": "application/x-www-form-urlencoded", "X-Twilio-Signature": signature})
    try:
        with urlopen(request, timeout=30) as answer:
            status = answer.status
    except Exception as error:  # the test reads the outcome from the log line
        status = getattr(error, "code", str(error))
    record({"callback": url, "sid": sid, "answered": status})


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("READY %d" % server.server_address[1], flush=True)
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
