import Foundation

/// One visible notification (`apns-push-type: alert`) and how APNs should treat it.
public struct APNsNotification: Sendable, Hashable {
    /// How insistently iOS presents it (`aps.interruption-level`).
    public enum InterruptionLevel: String, Sendable, Hashable {
        case passive
        case active
        /// Breaks through Focus and scheduled summaries: missed check-ins and SOS.
        case timeSensitive = "time-sensitive"
        /// Also breaks through the silent switch, with a critical sound. Needs Apple's Critical
        /// Alerts entitlement on the app; without it iOS shows the notification as time-sensitive.
        case critical
    }

    public var title: String
    public var body: String
    /// A sound in the app bundle, or `"default"`; nil for none. A critical alert always plays
    /// one (`"default"` when nil).
    public var sound: String?
    public var interruptionLevel: InterruptionLevel
    /// Groups notifications in Notification Center (`aps.thread-id`), e.g. one thread per person.
    public var threadID: String?
    /// Keys the app reads when the notification opens it, beside `aps`.
    public var data: [String: String]
    /// `apns-collapse-id` (at most 64 bytes): a newer notification with the same id replaces
    /// the one shown, so a repeated alert does not pile up.
    public var collapseID: String?
    /// `apns-priority`: 10 sends at once, 5 and 1 let the device save power.
    public var priority: Int
    /// How long APNs keeps trying a device that is offline (`apns-expiration`); nil or zero:
    /// one attempt, nothing stored.
    public var timeToLive: Duration?

    public init(
        title: String, body: String, sound: String? = "default", interruptionLevel: InterruptionLevel = .active,
        threadID: String? = nil, data: [String: String] = [:], collapseID: String? = nil, priority: Int = 10,
        timeToLive: Duration? = .seconds(24 * 60 * 60)
    ) {
        self.title = title
        self.body = body
        self.sound = sound
        self.interruptionLevel = interruptionLevel
        self.threadID = threadID
        self.data = data
        self.collapseID = collapseID
        self.priority = priority
        self.timeToLive = timeToLive
    }

    /// APNs refuses larger payloads (413 `PayloadTooLarge`).
    public static let maximumPayloadBytes = 4096
    public static let maximumCollapseIDBytes = 64

    /// The JSON body: `aps` (alert, sound, interruption level, thread) and the data keys beside
    /// it, keys sorted so the same notification is always the same bytes.
    ///
    /// - Throws: ``APNsError/invalidRequest(_:)`` when it cannot be sent as it is.
    public func payload() throws -> Data {
        guard !title.isEmpty || !body.isEmpty else { throw APNsError.invalidRequest("a notification needs a title or a body") }
        guard data["aps"] == nil else { throw APNsError.invalidRequest("`aps` is APNs' own key, not a data key") }
        guard [1, 5, 10].contains(priority) else { throw APNsError.invalidRequest("apns-priority is 1, 5 or 10, not \(priority)") }
        if let collapseID {
            guard !collapseID.isEmpty, collapseID.utf8.count <= Self.maximumCollapseIDBytes, !collapseID.contains(where: \.isNewline) else {
                throw APNsError.invalidRequest("a collapse id of 1 to \(Self.maximumCollapseIDBytes) bytes on one line")
            }
        }
        var aps: [String: Any] = ["alert": ["title": title, "body": body], "interruption-level": interruptionLevel.rawValue]
        if interruptionLevel == .critical {
            aps["sound"] = ["critical": 1, "name": sound ?? "default", "volume": 1.0] as [String: Any]
        } else if let sound {
            aps["sound"] = sound
        }
        if let threadID { aps["thread-id"] = threadID }
        var object: [String: Any] = data
        object["aps"] = aps
        let bytes = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        guard bytes.count <= Self.maximumPayloadBytes else {
            throw APNsError.invalidRequest("a payload of \(bytes.count) bytes, over APNs' \(Self.maximumPayloadBytes)")
        }
        return bytes
    }
}
