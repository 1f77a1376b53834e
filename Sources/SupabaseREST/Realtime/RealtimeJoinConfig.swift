import Foundation

/// The kind of change a `postgres_changes` binding asks for.
public enum PostgresChangeEvent: String, Codable, Sendable {
    case insert = "INSERT"
    case update = "UPDATE"
    case delete = "DELETE"
    /// Inserts, updates and deletes.
    case all = "*"
}

/// Broadcast settings of a channel's join (this client sends none; the server is told so).
public struct BroadcastJoinConfig: Sendable, Hashable {
    /// Whether the server acknowledges broadcasts (`ack`).
    public var acknowledgeBroadcasts: Bool
    /// Whether this client receives its own broadcasts (`self`).
    public var receiveOwnBroadcasts: Bool

    /// Creates settings.
    public init(acknowledgeBroadcasts: Bool = false, receiveOwnBroadcasts: Bool = false) {
        self.acknowledgeBroadcasts = acknowledgeBroadcasts
        self.receiveOwnBroadcasts = receiveOwnBroadcasts
    }
}

/// Presence settings of a channel's join (presence is not used by this client).
public struct PresenceJoinConfig: Sendable, Hashable {
    /// The presence key; empty lets the server pick one.
    public var key: String

    /// Creates settings.
    public init(key: String = "") { self.key = key }
}

/// A channel's settings, set through ``RealtimeClientV2/channel(_:options:)``.
public struct RealtimeChannelConfig: Sendable, Hashable {
    public var broadcast: BroadcastJoinConfig
    public var presence: PresenceJoinConfig
    /// Whether the channel is private (authorised by Realtime's RLS on `realtime.messages`).
    public var isPrivate: Bool

    /// Creates settings.
    public init(
        broadcast: BroadcastJoinConfig = .init(), presence: PresenceJoinConfig = .init(), isPrivate: Bool = false
    ) {
        self.broadcast = broadcast
        self.presence = presence
        self.isPrivate = isPrivate
    }
}

/// One `postgres_changes` binding as the client asks for it, and as the server echoes it
/// back with an `id`.
struct PostgresJoinConfig: Sendable, Hashable {
    var event: PostgresChangeEvent
    var schema: String
    var table: String?
    var filter: String?

    /// The request entry: `{"event","schema","table"?,"filter"?}`.
    var json: AnyJSON {
        var fields: JSONObject = ["event": .string(event.rawValue), "schema": .string(schema)]
        if let table { fields["table"] = .string(table) }
        if let filter { fields["filter"] = .string(filter) }
        return .object(fields)
    }

    /// Whether the server's echo `entry` is this binding — supabase-swift's rule: schema, table
    /// and filter equal, and the event equal or widened to `*` by the server.
    func matches(_ entry: JSONObject) -> Bool {
        let event = entry["event"]?.stringValue
        return entry["schema"]?.stringValue == schema
            && entry["table"]?.stringValue == table
            && Self.normalised(entry["filter"]?.stringValue) == Self.normalised(filter)
            && (event == self.event.rawValue || event == PostgresChangeEvent.all.rawValue)
    }

    /// `event schema.table filter`, for error messages.
    var summary: String {
        "\(event.rawValue) \(schema).\(table ?? "*")" + (filter.map { " \($0)" } ?? "")
    }

    static func summary(of entry: JSONObject) -> String {
        let event = entry["event"]?.stringValue ?? "?"
        let schema = entry["schema"]?.stringValue ?? "?"
        let table = entry["table"]?.stringValue ?? "*"
        return "\(event) \(schema).\(table)" + (entry["filter"]?.stringValue.map { " \($0)" } ?? "")
    }

    /// An empty filter means no filter, to the server as to the client.
    private static func normalised(_ filter: String?) -> String? {
        guard let filter, !filter.isEmpty else { return nil }
        return filter
    }
}

extension RealtimeChannelConfig {
    /// The `phx_join` payload:
    /// `{"access_token","config":{"broadcast":{"ack","self"},"presence":{"enabled","key"},"postgres_changes":[…],"private"}}`.
    func joinPayload(bindings: [PostgresJoinConfig], accessToken: String) -> JSONObject {
        [
            "config": [
                "broadcast": [
                    "ack": .bool(broadcast.acknowledgeBroadcasts), "self": .bool(broadcast.receiveOwnBroadcasts),
                ],
                "presence": ["key": .string(presence.key), "enabled": false],
                "postgres_changes": .array(bindings.map(\.json)),
                "private": .bool(isPrivate),
            ],
            "access_token": .string(accessToken),
        ]
    }
}
