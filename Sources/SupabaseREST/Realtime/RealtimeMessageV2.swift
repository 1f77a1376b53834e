import Foundation

/// One Phoenix channel message, as supabase-swift's `RealtimeMessageV2` names it.
///
/// On the wire (`vsn=2.0.0`) it is the JSON array `[join_ref, ref, topic, event, payload]`;
/// references are strings, or `null` for server pushes that answer nothing. Frames are
/// written with sorted keys, so the bytes of a message never vary between runs.
public struct RealtimeMessageV2: Hashable, Sendable {
    /// The `ref` of the `phx_join` that opened the channel this message belongs to.
    public var joinRef: String?
    /// This message's reference; a `phx_reply` carries the `ref` of the push it answers.
    public var ref: String?
    /// `realtime:<channel name>`, or `phoenix` for heartbeats.
    public var topic: String
    /// `phx_join`, `phx_reply`, `postgres_changes`, `heartbeat`, …
    public var event: String
    /// The event's body.
    public var payload: JSONObject

    /// Creates a message.
    public init(joinRef: String?, ref: String?, topic: String, event: String, payload: JSONObject) {
        self.joinRef = joinRef
        self.ref = ref
        self.topic = topic
        self.event = event
        self.payload = payload
    }

    /// The `status` of a `phx_reply` or `system` message (`ok`, `error`, `timeout`).
    public var status: String? { payload["status"]?.stringValue }

    /// The frame text in the `vsn=2.0.0` array framing.
    func encodedText() throws -> String {
        let frame: AnyJSON = [
            joinRef.map(AnyJSON.string) ?? .null, ref.map(AnyJSON.string) ?? .null,
            .string(topic), .string(event), .object(payload),
        ]
        return String(decoding: try SupabaseJSON.makeEncoder().encode(frame), as: UTF8.self)
    }

    /// Reads a text frame: the array framing, or the object framing of `vsn=1.0.0` (which a
    /// server may answer with whatever was asked). Numeric references are read as strings,
    /// since references are compared as text.
    static func decode(_ text: String) throws(RealtimeError) -> RealtimeMessageV2 {
        guard let value = try? JSONDecoder().decode(AnyJSON.self, from: Data(text.utf8)) else {
            throw .malformedMessage("the frame is not JSON")
        }
        let parts: [AnyJSON]
        switch value {
        case .array(let items):
            guard items.count == 5 else {
                throw .malformedMessage("expected 5 elements, got \(items.count)")
            }
            parts = items
        case .object(let fields):
            parts = [
                fields["join_ref"] ?? .null, fields["ref"] ?? .null, fields["topic"] ?? .null,
                fields["event"] ?? .null, fields["payload"] ?? .object([:]),
            ]
        default:
            throw .malformedMessage("expected an array or an object")
        }
        guard let topic = parts[2].stringValue, !topic.isEmpty else {
            throw .malformedMessage("`topic` must be a non-empty string")
        }
        guard let event = parts[3].stringValue, !event.isEmpty else {
            throw .malformedMessage("`event` must be a non-empty string")
        }
        let payload: JSONObject
        switch parts[4] {
        case .object(let fields): payload = fields
        case .null: payload = [:]
        default: throw .malformedMessage("`payload` must be an object")
        }
        return RealtimeMessageV2(
            joinRef: reference(parts[0]), ref: reference(parts[1]), topic: topic, event: event,
            payload: payload)
    }

    private static func reference(_ value: AnyJSON) -> String? {
        switch value {
        case .string(let text): text
        case .integer(let number): String(number)
        default: nil
        }
    }
}

/// The Phoenix and Realtime event names the client sends or reacts to.
enum RealtimeEvent {
    static let join = "phx_join"
    static let leave = "phx_leave"
    static let reply = "phx_reply"
    static let close = "phx_close"
    static let error = "phx_error"
    static let heartbeat = "heartbeat"
    static let accessToken = "access_token"
    static let postgresChanges = "postgres_changes"
    static let system = "system"
    /// The topic of socket-level messages (heartbeats).
    static let phoenixTopic = "phoenix"
}
