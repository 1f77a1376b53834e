import Foundation

/// One FCM HTTP v1 message: a target, and what to show or deliver.
public struct FCMMessage: Sendable, Equatable {
    /// Who receives the message — exactly one of the three.
    public enum Target: Sendable, Equatable {
        /// One device registration token.
        case token(String)
        /// Every device subscribed to the topic (name without `/topics/`).
        case topic(String)
        /// A boolean expression over topics (`'a' in topics && 'b' in topics`).
        case condition(String)
    }

    /// The cross-platform notification.
    public struct Notification: Sendable, Equatable {
        public var title: String?
        public var body: String?
        public var image: String?
        /// Creates a notification.
        public init(title: String? = nil, body: String? = nil, image: String? = nil) {
            self.title = title
            self.body = body
            self.image = image
        }
    }

    /// iOS options: APNs headers (`apns-priority`, `apns-push-type`, …) and the APNs payload
    /// (usually `{"aps": {…}}`).
    public struct APNSConfig: Sendable, Equatable {
        public var headers: [String: String]
        public var payload: AnyJSON?
        /// Creates APNs options.
        public init(headers: [String: String] = [:], payload: AnyJSON? = nil) {
            self.headers = headers
            self.payload = payload
        }
    }

    /// Android options.
    public struct AndroidConfig: Sendable, Equatable {
        /// `"NORMAL"` or `"HIGH"`.
        public var priority: String?
        /// How long to keep the message if the device is offline, e.g. `"3600s"`.
        public var ttl: String?
        public var collapseKey: String?
        /// The `android.notification` object, as FCM documents it.
        public var notification: AnyJSON?
        /// `android.notification.channel_id`: the app's notification channel (Android 8+) the
        /// notification is shown in, which sets its sound and importance on the device.
        public var channelID: String?
        /// Creates Android options.
        public init(
            priority: String? = nil, ttl: String? = nil, collapseKey: String? = nil, notification: AnyJSON? = nil,
            channelID: String? = nil
        ) {
            self.priority = priority
            self.ttl = ttl
            self.collapseKey = collapseKey
            self.notification = notification
            self.channelID = channelID
        }
    }

    public var target: Target
    public var notification: Notification?
    /// Key/value data for the app. FCM accepts **string values only**, which the type enforces.
    public var data: [String: String]
    public var apns: APNSConfig?
    public var android: AndroidConfig?

    /// Creates a message.
    public init(
        target: Target, notification: Notification? = nil, data: [String: String] = [:], apns: APNSConfig? = nil,
        android: AndroidConfig? = nil
    ) {
        self.target = target
        self.notification = notification
        self.data = data
        self.apns = apns
        self.android = android
    }

    /// The `{"message": …}` request body.
    var body: AnyJSON {
        var message: [String: AnyJSON] = [:]
        switch target {
        case .token(let token): message["token"] = .string(token)
        case .topic(let topic): message["topic"] = .string(topic)
        case .condition(let condition): message["condition"] = .string(condition)
        }
        if let notification {
            var object: [String: AnyJSON] = [:]
            if let title = notification.title { object["title"] = .string(title) }
            if let body = notification.body { object["body"] = .string(body) }
            if let image = notification.image { object["image"] = .string(image) }
            message["notification"] = .object(object)
        }
        if !data.isEmpty { message["data"] = .object(data.mapValues { .string($0) }) }
        if let apns {
            var object: [String: AnyJSON] = [:]
            if !apns.headers.isEmpty { object["headers"] = .object(apns.headers.mapValues { .string($0) }) }
            if let payload = apns.payload { object["payload"] = payload }
            message["apns"] = .object(object)
        }
        if let android {
            var object: [String: AnyJSON] = [:]
            if let priority = android.priority { object["priority"] = .string(priority) }
            if let ttl = android.ttl { object["ttl"] = .string(ttl) }
            if let collapseKey = android.collapseKey { object["collapse_key"] = .string(collapseKey) }
            if let notification = android.notification { object["notification"] = notification }
            if let channelID = android.channelID {
                // Merged into the notification object given, if any: FCM has one `android.notification`.
                var fields: [String: AnyJSON] = [:]
                if case .object(let given)? = android.notification { fields = given }
                fields["channel_id"] = .string(channelID)
                object["notification"] = .object(fields)
            }
            message["android"] = .object(object)
        }
        return ["message": .object(message)]
    }
}
