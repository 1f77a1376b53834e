import Foundation
import Testing

@testable import SupabaseREST

/// Realtime's wire forms without a socket: frames, join payloads, change payloads as
/// documented by Supabase Realtime's Phoenix protocol, the socket URL and the reconnection delays.
@Suite struct RealtimeDecodingTests {
    @Test func framesUseTheArrayFramingWithSortedKeys() throws {
        let heartbeat = RealtimeMessageV2(joinRef: nil, ref: "3", topic: "phoenix", event: "heartbeat", payload: [:])
        #expect(try heartbeat.encodedText() == #"[null,"3","phoenix","heartbeat",{}]"#)

        let token = RealtimeMessageV2(
            joinRef: "1", ref: "4", topic: "realtime:room", event: "access_token", payload: ["access_token": "a/b"])
        #expect(try token.encodedText() == #"["1","4","realtime:room","access_token",{"access_token":"a/b"}]"#)
    }

    @Test func joinPayloadIsTheOneSupabaseSwiftSends() throws {
        let payload = RealtimeChannelConfig().joinPayload(
            bindings: [
                PostgresJoinConfig(event: .insert, schema: "public", table: "events", filter: "location_id=eq.1"),
                PostgresJoinConfig(event: .all, schema: "public", table: nil, filter: nil),
            ],
            accessToken: "jwt")
        let text = try RealtimeMessageV2(joinRef: "1", ref: "1", topic: "realtime:x", event: "phx_join", payload: payload)
            .encodedText()
        #expect(
            text == #"["1","1","realtime:x","phx_join",{"access_token":"jwt","config":{"broadcast":{"ack":false,"self":false},"#
                + #""postgres_changes":[{"event":"INSERT","filter":"location_id=eq.1","schema":"public","table":"events"},"#
                + #"{"event":"*","schema":"public"}],"presence":{"enabled":false,"key":""},"private":false}}]"#)
    }

    @Test func framesDecodeInBothFramingsWithNumericRefsAsText() throws {
        let array = try RealtimeMessageV2.decode(#"["1","2","realtime:a","phx_reply",{"status":"ok","response":{}}]"#)
        #expect(
            array
                == RealtimeMessageV2(
                    joinRef: "1", ref: "2", topic: "realtime:a", event: "phx_reply",
                    payload: ["status": "ok", "response": [:]]))
        #expect(array.status == "ok")
        let object = try RealtimeMessageV2.decode(#"{"join_ref":null,"ref":7,"topic":"phoenix","event":"phx_reply","payload":{}}"#)
        #expect(object.joinRef == nil)
        #expect(object.ref == "7")
        #expect(object.topic == "phoenix")
    }

    @Test(arguments: [
        ("not json", "the frame is not JSON"),
        (#"["1","2","t"]"#, "expected 5 elements, got 3"),
        (#"[null,null,"","e",{}]"#, "`topic` must be a non-empty string"),
        (#"[null,null,"t",3,{}]"#, "`event` must be a non-empty string"),
        (#"[null,null,"t","e",[]]"#, "`payload` must be an object"),
        ("42", "expected an array or an object"),
    ])
    func malformedFramesAreRefusedPrecisely(frame: String, why: String) {
        #expect(throws: RealtimeError.malformedMessage(why)) { try RealtimeMessageV2.decode(frame) }
    }

    struct Location: Decodable, Equatable {
        var id: UUID
        var name: String
        var sortOrder: Int
        var createdAt: Date

        enum CodingKeys: String, CodingKey {
            case id, name
            case sortOrder = "sort_order"
            case createdAt = "created_at"
        }
    }

    static let rowID = "6f1c2b9e-4d5a-4c6b-8e7f-9a0b1c2d3e40"

    @Test func insertPayloadDecodesToAnInsertActionAndItsRecord() throws {
        let frame =
            #"[null,null,"realtime:c","postgres_changes",{"ids":[4,9],"data":{"schema":"public","table":"locations","#
            + #""commit_timestamp":"2024-06-01T10:00:00.000Z","type":"INSERT","columns":[{"name":"id","type":"uuid"},"#
            + #"{"name":"name","type":"text"}],"record":{"id":"\#(Self.rowID)","name":"Old Mill","sort_order":0,"#
            + #""created_at":"2024-06-01T10:00:00+00:00"},"errors":null}}]"#
        let message = try RealtimeMessageV2.decode(frame)
        let (ids, action) = try PostgresChangePayload.parse(message)
        #expect(ids == [4, 9])
        guard case .insert(let insert) = action else {
            Issue.record("expected an insert, got \(action)")
            return
        }
        #expect(insert.columns == [Column(name: "id", type: "uuid"), Column(name: "name", type: "text")])
        #expect(insert.commitTimestamp == Date(timeIntervalSince1970: 1_717_236_000))
        #expect(insert.record["name"] == "Old Mill")
        #expect(insert.rawMessage == message)
        let location = try insert.decodeRecord(as: Location.self)
        #expect(
            location
                == Location(
                    id: try #require(UUID(uuidString: Self.rowID)), name: "Old Mill", sortOrder: 0,
                    createdAt: Date(timeIntervalSince1970: 1_717_236_000)))
    }

    @Test func updateAndDeletePayloadsCarryTheOldRecord() throws {
        let update = try RealtimeMessageV2.decode(
            #"[null,null,"realtime:c","postgres_changes",{"ids":[1],"data":{"schema":"public","table":"t","#
                + #""commit_timestamp":"2024-06-01T10:00:00.5Z","type":"UPDATE","columns":[],"record":{"id":1,"name":"b"},"#
                + #""old_record":{"id":1}}}]"#)
        guard case .update(let updated) = try PostgresChangePayload.parse(update).action else {
            Issue.record("expected an update")
            return
        }
        #expect(updated.record == ["id": 1, "name": "b"])
        #expect(updated.oldRecord == ["id": 1])
        #expect(updated.commitTimestamp == Date(timeIntervalSince1970: 1_717_236_000.5))
        struct Key: Decodable, Equatable { var id: Int }
        #expect(try updated.decodeOldRecord(as: Key.self) == Key(id: 1))

        let delete = try RealtimeMessageV2.decode(
            #"[null,null,"realtime:c","postgres_changes",{"ids":[1],"data":{"schema":"public","table":"t","#
                + #""commit_timestamp":"2024-06-01T10:00:00Z","type":"DELETE","columns":[],"old_record":{"id":2}}}]"#)
        guard case .delete(let deleted) = try PostgresChangePayload.parse(delete).action else {
            Issue.record("expected a delete")
            return
        }
        #expect(deleted.oldRecord == ["id": 2])
    }

    @Test func changePayloadsWithoutTheirFieldsAreRefused() throws {
        let base = #"[null,null,"realtime:c","postgres_changes","#
        let cases: [(String, String)] = [
            (#"{"ids":[1]}]"#, "postgres_changes without a `data` object"),
            (#"{"ids":[1],"data":{"commit_timestamp":"2024-06-01T10:00:00Z"}}]"#, "postgres_changes without a `type`"),
            (
                #"{"ids":[1],"data":{"type":"INSERT","commit_timestamp":"yesterday"}}]"#,
                "postgres_changes without a valid `commit_timestamp`"
            ),
            (
                #"{"ids":[1],"data":{"type":"TRUNCATE","commit_timestamp":"2024-06-01T10:00:00Z"}}]"#,
                "unknown change type \"TRUNCATE\""
            ),
        ]
        for (tail, why) in cases {
            let message = try RealtimeMessageV2.decode(base + tail)
            #expect(throws: RealtimeError.malformedMessage(why)) { try PostgresChangePayload.parse(message) }
        }
    }

    @Test func socketURLCarriesTheKeyAndVersion() {
        #expect(
            RealtimeClientV2.socketURL(URL(string: "https://p.supabase.co/realtime/v1")!, apiKey: "k").absoluteString
                == "wss://p.supabase.co/realtime/v1/websocket?apikey=k&vsn=2.0.0")
        #expect(
            RealtimeClientV2.socketURL(URL(string: "http://127.0.0.1:54321/realtime/v1/")!, apiKey: "k").absoluteString
                == "ws://127.0.0.1:54321/realtime/v1/websocket?apikey=k&vsn=2.0.0")
    }

    @Test func backoffDoublesUpToItsCapWithBoundedJitter() {
        let backoff = RealtimeBackoff()
        #expect(backoff.delay(forAttempt: 1, spread: 0) == .seconds(1))
        #expect(backoff.delay(forAttempt: 2, spread: 0) == .seconds(2))
        #expect(backoff.delay(forAttempt: 4, spread: 0) == .seconds(8))
        #expect(backoff.delay(forAttempt: 9, spread: 0) == .seconds(30))
        #expect(backoff.delay(forAttempt: 1, spread: -1) == .milliseconds(750))
        #expect(backoff.delay(forAttempt: 1, spread: 1) == .milliseconds(1250))
        #expect(backoff.delay(forAttempt: 40, spread: 1) == .seconds(30))
        for attempt in 1...12 {
            let delay = backoff.delay(forAttempt: attempt)
            #expect(delay >= .milliseconds(750) && delay <= .seconds(30))
        }
        #expect(RealtimeBackoff(initial: .seconds(2), maximum: .seconds(1)).maximum == .seconds(2))
    }

    @Test func errorsReadAsSentences() {
        #expect(
            RealtimeError.joinRefused(topic: "realtime:x", reason: "permission denied for table t").localizedDescription
                == "The server refused to join realtime:x: permission denied for table t")
        #expect(
            WSClientTransport.redacted(URL(string: "wss://p.supabase.co/realtime/v1/websocket?apikey=secret&vsn=2.0.0")!)
                == "wss://p.supabase.co/realtime/v1/websocket")
    }
}
