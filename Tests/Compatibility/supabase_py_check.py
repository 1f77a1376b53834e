#!/usr/bin/env python3
"""supabase-py against a running `lifesignal serve`.

The official Python client (the `supabase` package from PyPI, pinned in requirements.txt)
drives the server exactly as an app would: phone sign-in with a fixed test code, the seed-004
content queries on locations, events and routes, a cloud function, and a realtime
subscription. The server is only compatible if the unmodified client parses every answer.

Each step prints one line `OK <step>`; the first failure prints `FAIL <step>: <why>` to stderr
and exits non-zero. The Swift test (SupabasePyCompatibilityTests) runs this script and then
checks the rows it wrote through the backend's own database, so a step that lies is caught.

Configuration, by flag or environment variable:
  --url       LIFESIGNAL_URL        server base URL, e.g. http://127.0.0.1:54321
  --anon-key  LIFESIGNAL_ANON_KEY   the anon key `serve` prints
  --phone     LIFESIGNAL_TEST_PHONE a phone number the server has a fixed code for
  --code      LIFESIGNAL_TEST_CODE  that code (LIFESIGNAL_TEST_OTP on the server)
  --tag       LIFESIGNAL_RUN_TAG    suffix for names and slugs (random when absent), so runs
                                    against one server never collide on the unique slugs
  --timeout   LIFESIGNAL_REALTIME_TIMEOUT seconds to wait for realtime (default 15)
"""

from __future__ import annotations

import argparse
import asyncio
import httpx
import os
import secrets
import sys
import traceback
from datetime import datetime, timezone
from typing import Any, Callable

from supabase import (
    AsyncClientOptions,
    Client,
    ClientOptions,
    FunctionsHttpError,
    acreate_client,
    create_client,
)


class CheckFailed(Exception):
    """A step's expectation did not hold; the message says what was expected and seen."""


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


def step(name: str, action: Callable[[], Any]) -> Any:
    """Runs one step, printing `OK <name>` or `FAIL <name>: …` and exiting on failure."""
    try:
        result = action()
    except CheckFailed as failure:
        fail(name, str(failure))
    except Exception as error:  # noqa: BLE001 — any client error is this step's failure
        fail(name, f"{type(error).__name__}: {describe(error)}", with_trace=True)
    print(f"OK {name}", flush=True)
    return result


def fail(name: str, why: str, with_trace: bool = False) -> None:
    if with_trace:
        traceback.print_exc(file=sys.stderr)
    print(f"FAIL {name}: {why}", file=sys.stderr, flush=True)
    sys.exit(1)


def describe(error: Exception) -> str:
    """The client's own words for an error, including PostgREST's code/details/hint."""
    parts = [str(error)]
    for field in ("code", "message", "details", "hint", "status", "name"):
        value = getattr(error, field, None)
        if value and str(value) not in parts:
            parts.append(f"{field}={value}")
    return "; ".join(parts)


def names(rows: list[dict[str, Any]]) -> list[str]:
    return [row["name"] for row in rows]


# MARK: seed 004's query helpers (shared/api/supabaseQueries.ts, in Python)


def base_query(client: Client, table: str, columns: str = "*") -> Any:
    """Every content query starts with the non-deleted filter, before any other."""
    return client.table(table).select(columns).is_("deleted_at", "null")


def with_search(query: Any, term: str | None, field: str = "name") -> Any:
    """Case-insensitive partial match, only when the trimmed term is non-empty."""
    if term is not None and term.strip():
        return query.ilike(field, f"%{term}%")
    return query


def with_date_range(query: Any, date_from: str | None, date_to: str | None) -> Any:
    """Events from `date_from` (start or end on/after it, or undated) up to `date_to` (start on/before it)."""
    if date_from:
        query = query.or_(
            f"start_date.gte.{date_from},end_date.gte.{date_from},and(start_date.is.null,end_date.is.null)"
        )
    if date_to:
        query = query.lte("start_date", date_to)
    return query


def iso_now() -> str:
    """Seed 004: soft deletes write an ISO 8601 timestamp."""
    return datetime.now(timezone.utc).isoformat()


# MARK: steps


class Check:
    def __init__(self, url: str, anon_key: str, phone: str, code: str, tag: str, timeout: float) -> None:
        self.url = url
        self.anon_key = anon_key
        self.phone = phone
        self.code = code
        self.tag = tag.lower()
        self.timeout = timeout
        # supabase-py gives functions 5 s and auth 10 s by default (PostgREST gets 120 s); the
        # whole suite shares a 2-core CI machine, where a call has been seen to queue past both.
        # The timeouts here are bounds against a hang, not speed checks.
        self.client: Client = create_client(url, anon_key, options=ClientOptions(
            function_client_timeout=60, httpx_client=httpx.Client(timeout=120)))
        self.user_id = ""
        self.access_token = ""
        self.refresh_token = ""

    def label(self, name: str) -> str:
        """A display name carrying the run tag in upper case, so searches must ignore case."""
        return f"{name} {self.tag.upper()}"

    def slug(self, name: str) -> str:
        return f"{name.lower().replace(' ', '-')}-{self.tag}"

    def mine(self, query: Any) -> Any:
        """Keeps a query to this run's rows (slugs end with the tag)."""
        return query.like("slug", f"%-{self.tag}")

    def sign_in(self) -> None:
        self.client.auth.sign_in_with_otp({"phone": self.phone})
        response = self.client.auth.verify_otp({"phone": self.phone, "token": self.code, "type": "sms"})
        session = response.session
        expect(session is not None, "verify_otp returned no session")
        expect(bool(session.access_token) and bool(session.refresh_token), "the session lacks its tokens")
        expect(session.token_type.lower() == "bearer", f"token_type is {session.token_type!r}, expected 'bearer'")
        user = response.user
        expect(user is not None and bool(user.id), "verify_otp returned no user")
        expect(user.phone == self.phone.lstrip("+"), f"user.phone is {user.phone!r}, expected {self.phone.lstrip('+')!r}")
        expect(user.aud == "authenticated", f"user.aud is {user.aud!r}")
        fetched = self.client.auth.get_user()
        expect(fetched is not None and fetched.user.id == user.id, "get_user() does not return the signed-in user")
        self.user_id = user.id
        self.access_token = session.access_token
        self.refresh_token = session.refresh_token
        print(f"  user {self.user_id}", flush=True)

    def create_and_update(self, table: str, specs: list[tuple[str, int]], extra: dict[str, Any]) -> list[dict[str, Any]]:
        """Creates rows one by one (each insert returns its row), then updates one, returning it."""
        created = []
        for name, order in specs:
            row = {"name": self.label(name), "slug": self.slug(name), "sort_order": order, "created_by": self.user_id, **extra}
            data = self.client.table(table).insert(row).execute().data
            expect(len(data) == 1, f"insert into {table} returned {len(data)} rows, expected the created row")
            made = data[0]
            expect(bool(made.get("id")), f"the created {table} row has no id: {made}")
            expect(made.get("name") == row["name"], f"created name {made.get('name')!r} != {row['name']!r}")
            expect(made.get("status") == "draft", f"status defaulted to {made.get('status')!r}, expected 'draft'")
            expect(made.get("deleted_at") is None, f"a new row has deleted_at {made.get('deleted_at')!r}")
            expect(made.get("created_by") == self.user_id, f"created_by is {made.get('created_by')!r}")
            created.append(made)
        return created

    def content(self, table: str, specs: list[tuple[str, int]], extra: dict[str, Any]) -> None:
        self.created = step(f"{table} create", lambda: self.create_and_update(table, specs, extra))
        step(f"{table} search and sort", lambda: self.search_and_sort(table, specs))
        step(f"{table} update", lambda: self.update(table))
        step(f"{table} soft delete", lambda: self.soft_delete(table))

    def search_and_sort(self, table: str, specs: list[tuple[str, int]]) -> None:
        ordered = [self.label(name) for name, order in sorted(specs, key=lambda spec: (spec[1], self.label(spec[0])))]
        everything = self.mine(with_search(base_query(self.client, table), "   ")).order("sort_order").order("name").execute().data
        expect(names(everything) == ordered, f"a blank search must not filter; order sort_order, name: got {names(everything)}, expected {ordered}")
        found = self.mine(with_search(base_query(self.client, table), "PARIS")).order("sort_order").order("name").execute().data
        expected = [name for name in ordered if "paris" in name.lower()]
        expect(names(found) == expected, f"ilike %PARIS%: got {names(found)}, expected {expected}")
        tagged = with_search(base_query(self.client, table), self.tag).order("sort_order").order("name").execute().data
        expect(names(tagged) == ordered, f"ilike %{self.tag}% against upper-case names: got {names(tagged)}, expected {ordered}")

    def update(self, table: str) -> None:
        target = self.created[0]
        changes = {"name": target["name"] + " (renamed)", "status": "published", "sort_order": 7}
        data = self.client.table(table).update(changes).eq("id", target["id"]).execute().data
        expect(len(data) == 1, f"update returned {len(data)} rows, expected the updated row")
        row = data[0]
        for key, value in changes.items():
            expect(row.get(key) == value, f"the updated row has {key}={row.get(key)!r}, expected {value!r}")
        expect(row.get("id") == target["id"], "update returned a different row")
        published = self.mine(base_query(self.client, table).eq("status", "published")).execute().data
        expect([r["id"] for r in published] == [target["id"]], f"status=published found {names(published)}")
        single = self.client.table(table).select("*").eq("id", target["id"]).single().execute().data
        expect(isinstance(single, dict) and single.get("name") == changes["name"], f"single() read back {single!r}")

    def soft_delete(self, table: str) -> None:
        target = self.created[1]
        stamp = iso_now()
        data = self.client.table(table).update({"deleted_at": stamp}).eq("id", target["id"]).execute().data
        expect(len(data) == 1 and data[0].get("deleted_at"), f"soft delete returned {data!r}")
        deleted_at = datetime.fromisoformat(data[0]["deleted_at"].replace("Z", "+00:00"))
        sent = datetime.fromisoformat(stamp)
        expect(abs((deleted_at - sent).total_seconds()) < 0.001, f"deleted_at came back as {data[0]['deleted_at']}, sent {stamp}")
        visible = self.mine(base_query(self.client, table)).execute().data
        expect(target["id"] not in [r["id"] for r in visible], f"the soft-deleted row is still in the non-deleted query: {names(visible)}")
        kept = self.mine(self.client.table(table).select("id, deleted_at")).eq("id", target["id"]).execute().data
        expect(len(kept) == 1, "the soft-deleted row is gone from the table; soft delete must keep it")

    def events(self) -> None:
        rows = [
            ("Past", "2024-05-01", "2024-05-02"),
            ("Spanning", "2024-05-30", "2024-06-03"),
            ("June", "2024-06-10", None),
            ("Later", "2024-08-01", None),
            ("Undated", None, None),
        ]
        payload = [
            {"name": self.label(name), "slug": self.slug(name), "start_date": start, "end_date": end,
             "created_by": self.user_id, "host_org": "Fiddletown"}
            for name, start, end in rows
        ]
        # A list is a bulk insert: supabase-py adds `columns=` and expects every row back.
        created = self.client.table("events").insert(payload).execute().data
        expect(sorted(names(created)) == sorted(p["name"] for p in payload), f"bulk insert returned {names(created)}")
        expect(all(r.get("status") == "draft" for r in created), "bulk-inserted events did not default to draft")
        self.events_created = created

    def event_dates(self) -> None:
        def window(date_from: str | None, date_to: str | None) -> list[str]:
            query = self.mine(with_date_range(base_query(self.client, "events"), date_from, date_to))
            return names(query.order("sort_order").order("start_date").execute().data)

        got = window("2024-06-01", "2024-06-30")
        want = [self.label(n) for n in ("Spanning", "June")]
        expect(got == want, f"events 2024-06-01..2024-06-30: got {got}, expected {want} (start <= to drops undated)")
        got = window("2024-06-01", None)
        want = [self.label(n) for n in ("Spanning", "June", "Later", "Undated")]
        expect(got == want, f"events from 2024-06-01: got {got}, expected {want} (undated kept, nulls last)")
        got = window(None, "2024-05-31")
        want = [self.label(n) for n in ("Past", "Spanning")]
        expect(got == want, f"events up to 2024-05-31: got {got}, expected {want}")
        june = next(r for r in self.events_created if r["name"] == self.label("June"))
        data = self.client.table("events").update({"end_date": "2024-06-12", "status": "archived"}).eq("id", june["id"]).execute().data
        expect(len(data) == 1 and data[0].get("end_date") == "2024-06-12" and data[0].get("status") == "archived",
               f"event update returned {data!r}")
        past = next(r for r in self.events_created if r["name"] == self.label("Past"))
        data = self.client.table("events").update({"deleted_at": iso_now()}).eq("id", past["id"]).execute().data
        expect(len(data) == 1 and data[0].get("deleted_at"), f"event soft delete returned {data!r}")
        got = window(None, "2024-05-31")
        expect(got == [self.label("Spanning")], f"after soft-deleting Past: got {got}")

    def trigger_alert(self) -> None:
        functions = self.client.functions
        reply = functions.invoke("trigger-alert", invoke_options={"body": {}, "responseType": "json"})
        expect(isinstance(reply, dict), f"trigger-alert answered {reply!r}, expected a JSON object")
        expect(reply.get("success") is True, f"trigger-alert success is {reply.get('success')!r}")
        expect(reply.get("status") == "active", f"trigger-alert status is {reply.get('status')!r}")
        expect(bool(reply.get("alertId")) and bool(reply.get("activatedAt")), f"trigger-alert lacks alertId/activatedAt: {reply}")
        try:
            functions.invoke("trigger-alert", invoke_options={"body": {}})
            raise CheckFailed("a second trigger-alert while one is active succeeded")
        except FunctionsHttpError as error:
            expect(400 <= error.status < 500, f"a second trigger-alert gave HTTP {error.status}, expected 4xx")
        active = functions.invoke("get-active-alert", invoke_options={"body": {}, "responseType": "json"})
        expect(active.get("hasActiveAlert") is True and active.get("alertId") == reply["alertId"], f"get-active-alert: {active}")
        cancelled = functions.invoke("cancel-alert", invoke_options={"body": {"alertId": reply["alertId"]}, "responseType": "json"})
        expect(cancelled.get("success") is True and cancelled.get("alertId") == reply["alertId"], f"cancel-alert: {cancelled}")
        expect(cancelled.get("status") != "active" and cancelled.get("resolvedAt"), f"cancel-alert left it {cancelled}")
        after = functions.invoke("get-active-alert", invoke_options={"body": {}, "responseType": "json"})
        expect(after.get("hasActiveAlert") is False, f"after cancel-alert, get-active-alert says {after}")
        print(f"  alert {reply['alertId']}", flush=True)

    async def realtime(self) -> None:
        """A locations INSERT made through the async client reaches its own subscription."""
        client = await acreate_client(self.url, self.anon_key, options=AsyncClientOptions(auto_refresh_token=False))
        await client.auth.set_session(self.access_token, self.refresh_token)
        await asyncio.sleep(0)  # the auth listener hands the token to realtime in a task
        expect(client.realtime.access_token == self.access_token, "the realtime client did not take the session's token")
        loop = asyncio.get_running_loop()
        subscribed: asyncio.Future[None] = loop.create_future()
        slug = self.slug("Realtime Barn")
        received: asyncio.Future[dict[str, Any]] = loop.create_future()

        def on_state(state: Any, error: Exception | None) -> None:
            if subscribed.done():
                return
            if str(getattr(state, "value", state)) == "SUBSCRIBED":
                subscribed.set_result(None)
            elif error is not None or str(getattr(state, "value", state)) in ("CHANNEL_ERROR", "TIMED_OUT", "CLOSED"):
                subscribed.set_exception(CheckFailed(f"subscription ended in {state}: {error}"))

        def on_insert(payload: dict[str, Any]) -> None:
            record = (payload.get("data") or {}).get("record") or {}
            if record.get("slug") == slug and not received.done():
                received.set_result(payload)

        channel = client.channel(f"content-{self.tag}")
        channel.on_postgres_changes("INSERT", schema="public", table="locations", callback=on_insert)
        try:
            await asyncio.wait_for(channel.subscribe(on_state), self.timeout)
            await asyncio.wait_for(subscribed, self.timeout)
            row = {"name": self.label("Realtime Barn"), "slug": slug, "created_by": self.user_id, "sort_order": 3}
            made = (await client.table("locations").insert(row).execute()).data
            expect(len(made) == 1, f"the async client's insert returned {made!r}")
            try:
                payload = await asyncio.wait_for(received, self.timeout)
            except asyncio.TimeoutError:
                raise CheckFailed(f"no INSERT for {slug} arrived within {self.timeout} s") from None
            data = payload["data"]
            expect(data.get("type") == "INSERT", f"change type {data.get('type')!r}")
            expect(data.get("schema") == "public" and data.get("table") == "locations", f"change for {data.get('schema')}.{data.get('table')}")
            expect(data["record"].get("id") == made[0]["id"], f"the change's record id {data['record'].get('id')} != {made[0]['id']}")
            expect(isinstance(payload.get("ids"), list) and payload["ids"], f"the change carries no subscription ids: {payload.get('ids')!r}")
        finally:
            await client.remove_all_channels()

    def sign_out(self) -> None:
        self.client.auth.sign_out()
        expect(self.client.auth.get_session() is None, "a session remains after sign_out")


def main() -> None:
    env = os.environ
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=env.get("LIFESIGNAL_URL"))
    parser.add_argument("--anon-key", default=env.get("LIFESIGNAL_ANON_KEY"))
    parser.add_argument("--phone", default=env.get("LIFESIGNAL_TEST_PHONE"))
    parser.add_argument("--code", default=env.get("LIFESIGNAL_TEST_CODE"))
    parser.add_argument("--tag", default=env.get("LIFESIGNAL_RUN_TAG") or secrets.token_hex(3))
    parser.add_argument("--timeout", type=float, default=float(env.get("LIFESIGNAL_REALTIME_TIMEOUT", "15")))
    args = parser.parse_args()
    missing = [flag for flag in ("url", "anon_key", "phone", "code") if not getattr(args, flag)]
    if missing:
        parser.error("missing " + ", ".join("--" + flag.replace("_", "-") for flag in missing))
    if not args.tag.isalnum():
        parser.error(f"--tag must be letters and digits, not {args.tag!r}")

    check = Check(args.url.rstrip("/"), args.anon_key, args.phone, args.code, args.tag, args.timeout)
    step("sign-in", check.sign_in)
    check.content("locations", [("Paris Vineyard", 2), ("Amador Flower Farm", 1), ("Old Paris Road", 1), ("Sutter Creek", 0)],
                  {"region": "Shenandoah Valley", "website_url": "https://example.org"})
    check.content("routes", [("Paris Loop", 1), ("Creek Walk", 0), ("Ridge Paris Trail", 1)],
                  {"difficulty": "moderate", "duration_minutes": 90})
    step("events create", check.events)
    step("events date range", check.event_dates)
    step("functions trigger-alert", check.trigger_alert)
    step("realtime insert", lambda: asyncio.run(check.realtime()))
    step("sign-out", check.sign_out)


if __name__ == "__main__":
    main()
