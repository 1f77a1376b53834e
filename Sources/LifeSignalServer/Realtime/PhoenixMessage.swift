import Foundation

/// One frame of the Phoenix channel protocol that Supabase Realtime speaks.
///
/// Clients pick the framing with `vsn` in the socket URL: `1.0.0` (supabase-js v1,
/// supabase-py) sends objects `{"join_ref","ref","topic","event","payload"}`, `2.0.0`
/// (supabase-swift, current supabase-js) sends arrays `[join_ref, ref, topic, event, payload]`.
/// References are echoed exactly as the client wrote them (string or number), because
/// clients match replies to pushes by comparing them.
struct PhoenixMessage: Sendable, Equatable {
    var joinRef: JSONValue
    var ref: JSONValue
    var topic: String
    var event: String
    var payload: JSONValue

    enum Serializer: Sendable, Equatable {
        case object
        case array

        /// `nil` for a version this server does not speak.
        init?(vsn: String?) {
            switch vsn {
            case nil, "1.0.0": self = .object
            case "2.0.0": self = .array
            default: return nil
            }
        }
    }

    enum DecodingError: Error, Equatable, CustomStringConvertible {
        case notJSON
        case badShape(String)

        var description: String {
            switch self {
            case .notJSON: "the frame is not JSON"
            case .badShape(let why): "the frame is not a Phoenix message: \(why)"
            }
        }
    }

    /// Reads a text frame. Either framing is accepted whatever `vsn` said (clients only ever
    /// send one), but replies use the negotiated one.
    static func decode(_ text: String) throws(DecodingError) -> PhoenixMessage {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else { throw .notJSON }
        switch value {
        case .array(let items):
            guard items.count == 5 else { throw .badShape("expected 5 elements, got \(items.count)") }
            return try make(joinRef: items[0], ref: items[1], topic: items[2], event: items[3], payload: items[4])
        case .object(let fields):
            return try make(
                joinRef: fields["join_ref"] ?? .null, ref: fields["ref"] ?? .null, topic: fields["topic"] ?? .null,
                event: fields["event"] ?? .null, payload: fields["payload"] ?? .object([:]))
        default:
            throw .badShape("expected an object or an array")
        }
    }

    private static func make(joinRef: JSONValue, ref: JSONValue, topic: JSONValue, event: JSONValue, payload: JSONValue) throws(DecodingError) -> PhoenixMessage
    {
        guard case .string(let topicText) = topic, !topicText.isEmpty else { throw .badShape("`topic` must be a non-empty string") }
        guard case .string(let eventText) = event, !eventText.isEmpty else { throw .badShape("`event` must be a non-empty string") }
        return PhoenixMessage(joinRef: joinRef, ref: ref, topic: topicText, event: eventText, payload: payload)
    }

    /// A frame whose payload is already JSON text (rows rendered by the database are sent as
    /// they are, without a decode and re-encode).
    static func encode(joinRef: JSONValue, ref: JSONValue, topic: String, event: String, payloadJSON: String, as serializer: Serializer) -> String {
        switch serializer {
        case .array:
            "[\(joinRef.jsonText),\(ref.jsonText),\(JSONRenderer.quote(topic)),\(JSONRenderer.quote(event)),\(payloadJSON)]"
        case .object:
            "{\"join_ref\":\(joinRef.jsonText),\"ref\":\(ref.jsonText),\"topic\":\(JSONRenderer.quote(topic)),"
                + "\"event\":\(JSONRenderer.quote(event)),\"payload\":\(payloadJSON)}"
        }
    }

    func encoded(as serializer: Serializer) -> String {
        Self.encode(joinRef: joinRef, ref: ref, topic: topic, event: event, payloadJSON: payload.jsonText, as: serializer)
    }
}

extension JSONValue {
    subscript(key: String) -> JSONValue? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }

    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
