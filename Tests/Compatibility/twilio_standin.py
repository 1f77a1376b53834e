"""A stand-in for Twilio's Messages and Voice APIs, for LifeSignal's SMS and call tests.

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

Voice. `POST /2010-04-01/Accounts/<sid>/Calls.json`, with the same auth and a form body: `To`,
`From`, `Url` with `Method` (POST, or GET) or an inline `Twiml`, `StatusCallback` with
`StatusCallbackEvent` (repeated or space-separated, among `initiated ringing answered completed`;
`completed` alone by default) and `StatusCallbackMethod` (POST), `Timeout` (whole seconds; the
script, not the clock, decides who answers), `MachineDetection` (`Enable` or `DetectMessageEnd`).
It answers 201 with the call's JSON (`sid` "CA" and 32 hex digits, `status` "queued", `to`, `from`,
`account_sid`, `direction` "outbound-api", `answered_by`, `duration`, ...) or Twilio's error JSON:
401 20003; 400 21201 without `To`, 21213 without `From`, 21205 without `Url` or `Twiml` (or with a
`Url` that is not absolute http(s)), 21200 for a method, event, `MachineDetection` or `Timeout`
Twilio does not take; +15559990000 is invalid (400, 21211), +15559990002 rate limited (429,
20429), +15559990003 a server error (500). `GET /2010-04-01/Accounts/<sid>/Calls/<CallSid>.json`
(same auth) answers the call's JSON as it is now: `status`, `answered_by`, and `duration` (a
string, as Twilio writes it) once the call ended.

The call then happens in a thread of its own, against the telephone the test scripted for `To`
with `POST /control/phones` and a JSON body such as
`{"+15551230001": {"answer": "human", "presses": ["1"]}, "+15551230002": {"answer": "machine"}}`,
merged into the table number by number (a number given again starts afresh); 204, or 400 with
`{"error": why}`; `GET /control/phones` shows the table and what is left of each list. `answer`
is `human` (the default, also for a number never scripted), `machine` (voicemail picks up; it
never presses anything and hangs up at the end of the document), `no-answer`, `busy` or
`failed`. `presses` is consumed in order, across the calls to that number, one item per
`<Gather>` the phone meets: digits to press ("1", "4821#"), "" to stay silent (the Gather times
out), or "hangup" to hang up there; once the list is empty the phone stays silent.

Status callbacks go to a `StatusCallback` on 127.0.0.1 or localhost only, in order, from the
call's thread (each is answered before the call goes on), signed with `X-Twilio-Signature`
(HMAC-SHA1 of the URL with its query string, then every parameter's name and value in name
order): `initiated` (CallStatus "initiated"), `ringing` ("ringing"), `answered` ("in-progress"),
each if asked for, and always the final status: "completed" once answered, or "no-answer",
"busy", "failed". A busy or failed phone never rings; a phone rings for 0.2 s of real time.
Fields: `CallSid`, `AccountSid`, `From`, `To`, `Direction` "outbound-api", `ApiVersion`,
`CallStatus`, `CallbackSource` "call-progress-events", `SequenceNumber` (0, 1, 2, ... over the
callbacks sent), `Timestamp` (RFC 2822, UTC), `CallDuration` on "completed", and `AnsweredBy`
once answered when `MachineDetection` was asked.

Answered, the phone fetches `Url` (or runs `Twiml`) with `CallSid`, `AccountSid`, `From`, `To`,
`CallStatus` "in-progress", `Direction` "outbound-api", `ApiVersion` "2010-04-01" and, when
`MachineDetection` was asked, `AnsweredBy` ("human"; a machine is "machine_start", or
"machine_end_beep" with DetectMessageEnd), as a POST form or a GET query string, signed the same
way; webhooks on 127.0.0.1 or localhost only. It follows the TwiML as a telephone does: `<Say>`
and `<Play>` are heard, `<Pause length>` waits (0.05 s at most of real time); `<Gather>` speaks
what it nests, then takes the phone's next item: digits, cut at `finishOnKey` ('#' unless given;
"" for none) or at `numDigits`, go to `action` (by default the document's own URL; `method`, POST)
with `Digits` and `FinishedOnKey`, and the answer replaces the document; silence (or only the
finish key) goes on to the verbs after the Gather (or to `action` with empty `Digits` when
`actionOnEmptyResult="true"`); "hangup" ends the call. `<Redirect method>` fetches its URL and
goes on with that document; relative URLs are resolved against the current document's URL.
`<Hangup/>` and the end of a document end the call as "completed"; `<Reject>` as the call's first
verb ends it as "busy". A webhook that answers other than 2xx, cannot be reached, or answers
anything but a TwiML `<Response>` is an application error: the phone hears "An application
error has occurred." and the call ends "completed". After 50 verbs and fetches the call is cut
(a loop). Lines, besides the request lines (`fields` holds a repeated field as a list):

    {"path": "/control/phones", "phones": {<number>: {"answer": a, "presses": [...]}}}
    {"path": "/control/phones", "phones": null, "refused": why}
    {"path": ".../Calls/<CallSid>.json", "method": "GET", "authorized": true}
    {"call": sid, "status_callback": url, "event": e, "call_status": s, "sequence": n, "status": http}
    {"call": sid, "status_callback": url, "event": e, "skipped": "not on this machine"}
    {"call": sid, "fetch": url, "method": "POST", "status": http, "digits": "1" or null}
    {"call": sid, "to": to, "heard": text}    (Say's voice and language too, when given; Play's
                                              is "[play <url>]"; whitespace runs read as one space)
    {"call": sid, "to": to, "pressed": keys}  ("" for silence)
    {"call": sid, "to": to, "hung_up": true}
    {"call": sid, "error": 11200 (HTTP) or 12100 (not TwiML) or 11100 (a bad URL), "detail": text}
    {"call": sid, "unsupported": verb}
    {"call": sid, "loop": true}
    {"call": sid, "to": to, "ended": status, "answered_by": AnsweredBy or null, "phone": answer,
     "duration": seconds}

where `http` is the HTTP status, or the error's text when there was no answer. The `ended` line
is the call's last, written once the final callback was answered. Durations are simulated:
speech at 150 words a minute, Pause lengths, a silent Gather's timeout, half a second a key;
at least 1 s for an answered call, 0 for one that was not.
"""
import base64
import datetime
import email.utils
import hashlib
import hmac
import json
import math
import re
import sys
import threading
import time
import uuid
import xml.etree.ElementTree as ElementTree
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urljoin, urlparse
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

# Voice: the Calls resource, and the telephones the calls reach.
CALLS_PATH = "/2010-04-01/Accounts/%s/Calls.json" % SID
CALL_PATH = re.compile(r"^/2010-04-01/Accounts/%s/Calls/(CA[0-9a-f]{32})\.json$" % re.escape(SID))
CALL_FAILURES = {number: FAILURES[number] for number in ("+15559990000", "+15559990002", "+15559990003")}
CALL_FAILURES["+15559990000"] = (400, 21211, "Invalid 'To' Phone Number: +15559990000")
EVENTS = ("initiated", "ringing", "answered", "completed")
ANSWERS = ("human", "machine", "no-answer", "busy", "failed")
RING_SECONDS = 0.2   # real time a phone rings before it answers (or gives up), so the 201 comes first
MAX_STEPS = 50       # verbs and fetches per call, against TwiML that loops forever
APPLICATION_ERROR = "An application error has occurred."
phones = {}  # number -> {"answer": ..., "presses": [...]}, set by POST /control/phones
calls = {}   # CallSid -> the call resource's JSON


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

    def authorized(self):
        expected = "Basic " + base64.b64encode(("%s:%s" % (SID, TOKEN)).encode()).decode()
        return self.headers.get("Authorization") == expected

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length).decode()
        if self.path == "/control/phones":
            return self.set_phones(body)
        lists = parse_qs(body, keep_blank_values=True)
        authorized = self.authorized()
        if self.path == CALLS_PATH:
            return self.create_call(lists, authorized)
        fields = {k: v[0] for k, v in lists.items()}
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


    def do_GET(self):
        if self.path == "/control/phones":
            with lock:
                table = json.loads(json.dumps(phones))
            return self.answer(200, table)
        authorized = self.authorized()
        record({"path": self.path, "method": "GET", "authorized": authorized})
        match = CALL_PATH.match(self.path.split("?")[0])
        if not match:
            return self.error(404, 20404, "The requested resource was not found")
        if not authorized:
            return self.error(401, 20003, "Authenticate")
        with lock:
            call = dict(calls[match.group(1)]) if match.group(1) in calls else None
        if call is None:
            return self.error(404, 20404, "The requested resource %s was not found" % self.path)
        self.answer(200, call)

    def set_phones(self, body):
        """The test's telephone book: `{"+15551230001": {"answer": "human", "presses": ["1"]}, ...}`,
        merged number by number into the table (a number given again starts its script afresh)."""
        try:
            table = json.loads(body or "{}")
            if not isinstance(table, dict):
                raise ValueError("the body must be a JSON object of numbers")
            scripts = {}
            for number, script in table.items():
                if not isinstance(script, dict):
                    raise ValueError("the script for %s must be an object" % number)
                answer = script.get("answer", "human")
                if answer not in ANSWERS:
                    raise ValueError("answer for %s must be one of %s" % (number, ", ".join(ANSWERS)))
                presses = script.get("presses", [])
                if not isinstance(presses, list) or not all(isinstance(item, str) for item in presses):
                    raise ValueError("presses for %s must be a list of strings" % number)
                scripts[number] = {"answer": answer, "presses": list(presses)}
        except ValueError as problem:  # json.JSONDecodeError is a ValueError
            record({"path": self.path, "phones": None, "refused": str(problem)})
            return self.answer(400, {"error": str(problem)})
        with lock:
            phones.update(scripts)
        record({"path": self.path, "phones": scripts})
        self.send_response(204)
        self.end_headers()

    def create_call(self, lists, authorized):
        fields = {k: (v[0] if len(v) == 1 else v) for k, v in lists.items()}
        record({"path": self.path, "authorized": authorized, "fields": fields, "content_type": self.headers.get("Content-Type")})
        if not authorized:
            return self.error(401, 20003, "Authenticate")
        first = {k: v[0] for k, v in lists.items()}
        to, caller = first.get("To", ""), first.get("From", "")
        if not to:
            return self.error(400, 21201, "No 'To' number is specified")
        if not caller:
            return self.error(400, 21213, "No 'From' number is specified")
        if to in CALL_FAILURES:
            return self.error(*CALL_FAILURES[to])
        url, twiml = first.get("Url", ""), first.get("Twiml", "")
        if not url and not twiml:
            return self.error(400, 21205, "Url parameter is required (or Twiml).")
        if url and (urlparse(url).scheme not in ("http", "https") or not urlparse(url).hostname):
            return self.error(400, 21205, "Url is not a valid URL: %s" % url)
        method = first.get("Method", "POST").upper() or "POST"
        callback_method = first.get("StatusCallbackMethod", "POST").upper() or "POST"
        if method not in ("GET", "POST") or callback_method not in ("GET", "POST"):
            return self.error(400, 21200, "Method and StatusCallbackMethod must be GET or POST")
        events = [event for value in lists.get("StatusCallbackEvent", []) for event in value.split()]
        if any(event not in EVENTS for event in events):
            return self.error(400, 21200, "StatusCallbackEvent must be among: %s" % " ".join(EVENTS))
        detection = first.get("MachineDetection", "")
        if detection not in ("", "Enable", "DetectMessageEnd"):
            return self.error(400, 21200, "MachineDetection must be Enable or DetectMessageEnd")
        try:
            ring_timeout = int(first.get("Timeout", "60") or "60")
        except ValueError:
            return self.error(400, 21200, "Timeout must be a whole number of seconds")
        sid = "CA" + uuid.uuid4().hex
        now = http_date()
        resource = {"sid": sid, "account_sid": SID, "to": to, "from": caller, "status": "queued",
                    "direction": "outbound-api", "answered_by": None, "duration": None, "start_time": None,
                    "end_time": None, "date_created": now, "date_updated": now, "api_version": "2010-04-01",
                    "parent_call_sid": None, "price": None, "price_unit": "USD",
                    "uri": "/2010-04-01/Accounts/%s/Calls/%s.json" % (SID, sid)}
        with lock:
            calls[sid] = resource
        self.answer(201, resource)
        request = {"url": url or None, "method": method, "twiml": twiml or None,
                   "callback": first.get("StatusCallback") or None, "callback_method": callback_method,
                   "events": set(events or ["completed"]), "detection": detection or None, "timeout": ring_timeout}
        threading.Thread(target=Call(sid, to, caller, request).run, daemon=True).start()


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


def http_date():
    """A date as Twilio writes them (RFC 2822, UTC): `Tue, 05 Mar 2024 10:00:00 +0000`."""
    return email.utils.format_datetime(datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0))


def sign(url, params):
    """X-Twilio-Signature: Base64(HMAC-SHA1(auth token, URL + each parameter's name and value in
    name order)); a GET request's parameters are in its URL, and nothing is appended."""
    text = url + "".join(k + params[k] for k in sorted(params))
    return base64.b64encode(hmac.new(TOKEN.encode(), text.encode(), hashlib.sha1).digest()).decode()


def local(url):
    return urlparse(url or "").hostname in ("127.0.0.1", "localhost")


def signed_request(url, method, params, timeout):
    """Sends `params` as Twilio does (a POST form, or a GET query string), signed; returns
    (HTTP status or an error text, the body's bytes)."""
    if method == "GET":
        url = url + ("&" if urlparse(url).query else "?") + urlencode(params)
        request = Request(url, method="GET", headers={"X-Twilio-Signature": sign(url, {})})
    else:
        request = Request(url, data=urlencode(params).encode(), method="POST",
                          headers={"Content-Type": "application/x-www-form-urlencoded", "X-Twilio-Signature": sign(url, params)})
    try:
        with urlopen(request, timeout=timeout) as answer:
            return answer.status, answer.read()
    except Exception as error:  # the test reads the outcome from the log line
        body = error.read() if hasattr(error, "read") else b""
        return getattr(error, "code", str(error)), body


class CallEnded(Exception):
    """The call is over (a hangup on either side, an application error, a loop)."""


class Call:
    """One outbound call: it rings the phone the test scripted for `To`, reports the call's
    progress to the StatusCallback, and, once answered, follows the TwiML as a telephone would,
    in this thread, one step after another."""

    def __init__(self, sid, to, caller, request):
        self.sid, self.to, self.caller, self.request = sid, to, caller, request
        with lock:
            script = phones.get(to, {"answer": "human", "presses": []})
        self.answer = script["answer"]
        self.answered_by = None
        self.sequence = 0
        self.steps = 0
        self.verbs = 0
        self.seconds = 0.0     # simulated time on the line since the phone answered

    # The call's life.

    def run(self):
        self.report("initiated", "initiated")
        if self.answer == "failed":
            return self.end("failed")
        if self.answer == "busy":
            time.sleep(RING_SECONDS)
            return self.end("busy")
        self.update(status="ringing")
        self.report("ringing", "ringing")
        time.sleep(RING_SECONDS)
        if self.answer == "no-answer":
            return self.end("no-answer")
        if self.request["detection"]:
            if self.answer == "human":
                self.answered_by = "human"
            else:
                self.answered_by = "machine_end_beep" if self.request["detection"] == "DetectMessageEnd" else "machine_start"
        self.update(status="in-progress", start_time=http_date(), answered_by=self.answered_by)
        self.report("answered", "in-progress")
        final = "completed"
        try:
            if self.request["twiml"] is not None:
                self.follow(None, self.request["twiml"].encode())
            else:
                self.follow(*self.fetch(self.request["url"], self.request["method"]))
        except CallEnded as ending:
            final = ending.args[0] if ending.args else "completed"
        self.end(final)

    def end(self, status):
        duration = max(1, math.ceil(self.seconds)) if status == "completed" else 0
        self.update(status=status, duration=str(duration), end_time=http_date())
        self.report("completed", status, duration=duration)
        record({"call": self.sid, "to": self.to, "ended": status, "answered_by": self.answered_by, "phone": self.answer,
                "duration": duration})

    def update(self, **changes):
        with lock:
            calls[self.sid].update(changes, date_updated=http_date())

    def params(self, status="in-progress"):
        params = {"CallSid": self.sid, "AccountSid": SID, "From": self.caller, "To": self.to, "CallStatus": status,
                  "Direction": "outbound-api", "ApiVersion": "2010-04-01"}
        if self.answered_by:
            params["AnsweredBy"] = self.answered_by
        return params

    def report(self, event, status, duration=None):
        """A status callback, if the request asked for this event (the final one always goes)."""
        url = self.request["callback"]
        if not url or (event != "completed" and event not in self.request["events"]):
            return
        if not local(url):  # tests never reach out further
            return record({"call": self.sid, "status_callback": url, "event": event, "skipped": "not on this machine"})
        params = self.params(status)  # AnsweredBy only once AMD has answered it
        params.update({"CallbackSource": "call-progress-events", "SequenceNumber": str(self.sequence), "Timestamp": http_date()})
        if status == "completed":
            params["CallDuration"] = str(duration)
        code, _ = signed_request(url, self.request["callback_method"], params, timeout=30)
        record({"call": self.sid, "status_callback": url, "event": event, "call_status": status, "sequence": self.sequence,
                "status": code})
        self.sequence += 1

    # Following TwiML.

    def step(self):
        self.steps += 1
        if self.steps > MAX_STEPS:
            record({"call": self.sid, "loop": True})
            raise CallEnded("completed")

    def fetch(self, url, method, digits=None, finished_on_key=None):
        """The next document: (its URL, its bytes); an application error ends the call."""
        self.step()
        params = self.params()
        if digits is not None:
            params["Digits"] = digits
            params["FinishedOnKey"] = finished_on_key or ""
        if not local(url):
            code, body = "refused: not on this machine", b""
        else:
            code, body = signed_request(url, method, params, timeout=15)
        record({"call": self.sid, "fetch": url, "method": method, "status": code, "digits": digits})
        if not isinstance(code, int) or not 200 <= code < 300:
            self.application_error(11200, "HTTP retrieval failure: %s %s answered %s" % (method, url, code))
        return url, body

    def application_error(self, code, detail):
        record({"call": self.sid, "error": code, "detail": detail})
        self.hear(APPLICATION_ERROR)
        raise CallEnded("completed")

    def hear(self, text, element=None):
        line = {"call": self.sid, "to": self.to, "heard": text}
        for attribute in ("voice", "language"):
            if element is not None and element.get(attribute):
                line[attribute] = element.get(attribute)
        record(line)

    def resolve(self, document_url, target):
        if urlparse(target).scheme in ("http", "https"):
            return target
        if document_url is None:  # inline Twiml has no URL to resolve against
            self.application_error(11100, "Invalid URL format: %r (relative, in inline Twiml)" % target)
        return urljoin(document_url, target)

    def follow(self, document_url, body):
        """Runs documents until the call ends: each Gather answered or Redirect replaces the
        document; the end of a document hangs up."""
        while True:
            try:
                root = ElementTree.fromstring(body)
            except ElementTree.ParseError as problem:
                self.application_error(12100, "Document parse failure: %s" % problem)
            if root.tag != "Response":
                self.application_error(12100, "Document parse failure: the root element is <%s>, not <Response>" % root.tag)
            following = None
            for verb in root:
                following = self.perform(verb, document_url)
                if following is not None:
                    break
            if following is None:
                raise CallEnded("completed")  # the end of the document: Twilio hangs up
            document_url, body = following

    def speak(self, verb, document_url):
        """Say, Play and Pause (also as nested in Gather)."""
        self.step()
        repeat = verb.get("loop", "1")
        repeat = max(1, min(int(repeat) if repeat.isdigit() else 1, 10))
        if verb.tag == "Say":
            text = " ".join("".join(verb.itertext()).split())
            for _ in range(repeat):
                self.hear(text, verb)
                self.seconds += max(1.0, len(text.split()) / 2.5)  # 150 words a minute
        elif verb.tag == "Play":
            target = (verb.text or "").strip()
            if target:
                for _ in range(repeat):
                    self.hear("[play %s]" % self.resolve(document_url, target))
                    self.seconds += 2
            elif verb.get("digits"):
                self.hear("[play digits %s]" % verb.get("digits"))
        elif verb.tag == "Pause":
            length = verb.get("length", "1")
            length = int(length) if length.isdigit() else 1
            time.sleep(min(length, 0.05))
            self.seconds += length
        else:
            record({"call": self.sid, "unsupported": verb.tag})

    def perform(self, verb, document_url):
        """One verb; returns the next document (URL, bytes) when the verb leads to one."""
        self.verbs += 1
        if verb.tag in ("Say", "Play", "Pause"):
            return self.speak(verb, document_url)
        if verb.tag == "Gather":
            return self.gather(verb, document_url)
        if verb.tag == "Redirect":
            self.step()
            return self.fetch(self.resolve(document_url, (verb.text or "").strip()), verb.get("method", "POST").upper())
        if verb.tag == "Hangup":
            raise CallEnded("completed")
        if verb.tag == "Reject":
            raise CallEnded("busy" if self.verbs == 1 else "completed")  # rejecting only works first
        self.step()
        record({"call": self.sid, "unsupported": verb.tag})
        return None

    def gather(self, verb, document_url):
        self.step()
        for nested in verb:
            self.speak(nested, document_url)
        timeout = verb.get("timeout", "5")
        timeout = int(timeout) if timeout.isdigit() else 5
        finish = verb.get("finishOnKey", "#")
        limit = verb.get("numDigits", "")
        limit = int(limit) if limit.isdigit() and int(limit) > 0 else None
        keys = self.next_press()
        if keys == "hangup":
            record({"call": self.sid, "to": self.to, "hung_up": True})
            raise CallEnded("completed")
        if "dtmf" not in verb.get("input", "dtmf").split():
            keys = ""  # a speech-only Gather does not listen to the keypad
        digits, finished_on_key = "", ""
        for key in keys:
            if finish and key == finish:
                finished_on_key = key
                break
            digits += key
            if limit and len(digits) == limit:
                break
        record({"call": self.sid, "to": self.to, "pressed": keys})
        self.seconds += 0.5 * len(keys) if keys else timeout
        if not digits and verb.get("actionOnEmptyResult", "false").lower() != "true":
            return None  # silence: on to the verbs after the Gather
        action = self.resolve(document_url, verb.get("action")) if verb.get("action") else document_url
        if action is None:
            self.application_error(11100, "Invalid URL format: a Gather without action in inline Twiml")
        return self.fetch(action, verb.get("method", "POST").upper(), digits=digits, finished_on_key=finished_on_key)

    def next_press(self):
        """The phone's next item for a Gather: digits, "" (silence) or "hangup". A machine never
        presses anything; an exhausted list is silence."""
        if self.answer == "machine":
            return ""
        with lock:
            presses = phones.get(self.to, {}).get("presses", [])
            return presses.pop(0) if presses else ""


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("READY %d" % server.server_address[1], flush=True)
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
