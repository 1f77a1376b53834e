/// A way a message reaches a person outside the app's own history (the notifications table
/// and Realtime, which every notification always goes to).
public enum DeliveryChannel: String, Hashable, Codable, Sendable, CaseIterable {
    /// APNs or FCM, to every device token the person registered.
    case push
    /// A text message to the person's verified phone number.
    case sms
    /// An email to the person's confirmed email address.
    case email
    /// A phone call to the person's verified phone number, read out, with a keypad menu:
    /// "Press 1 if you will check on them", or, for the person, "Press 1 if you're OK". Only
    /// what cannot wait goes by call (``NotificationType/isCalled``); off unless chosen.
    case voice
}

/// What one channel carries for a person.
public enum ChannelChoice: String, Hashable, Codable, Sendable, CaseIterable {
    /// Every notification.
    case all
    /// Only what cannot wait: missed check-ins, SOS alerts and their all-clears
    /// (``NotificationType/isUrgent``).
    case urgent
    /// Nothing.
    case off

    /// Whether a notification of `type` goes out on a channel set to this choice.
    public func carries(_ type: NotificationType) -> Bool {
        switch self {
        case .all: true
        case .urgent: type.isUrgent
        case .off: false
        }
    }
}

/// A person's choice, per channel, of what reaches them.
///
/// The defaults suit a safety system: every notification by push, and what cannot wait also by
/// SMS and email — a responder may have no app at all, only a phone number.
public struct DeliveryPreferences: Hashable, Codable, Sendable {
    public var push: ChannelChoice
    public var sms: ChannelChoice
    public var email: ChannelChoice
    /// Calls are off until the person asks for them: a ringing phone at night is a choice.
    public var voice: ChannelChoice
    /// How an alert reaches this person as a responder: empty, on every chosen channel at
    /// once; otherwise one channel after another in this order (say push, SMS, call, email),
    /// moving on when one fails or goes unanswered for its share of the tier's delay, and
    /// stopping as soon as anyone answers. Chosen channels left out come last.
    public var fallback: [DeliveryChannel]

    public init(
        push: ChannelChoice = .all, sms: ChannelChoice = .urgent, email: ChannelChoice = .urgent, voice: ChannelChoice = .off,
        fallback: [DeliveryChannel] = []
    ) {
        self.push = push
        self.sms = sms
        self.email = email
        self.voice = voice
        self.fallback = fallback
    }

    /// Refuses an order that names a channel twice.
    public static func validate(fallback: [DeliveryChannel]) throws(DomainError) {
        guard Set(fallback).count == fallback.count else { throw .invalidArgument("A fallback order names each channel at most once") }
    }

    public static let standard = DeliveryPreferences()

    public subscript(channel: DeliveryChannel) -> ChannelChoice {
        get {
            switch channel {
            case .push: push
            case .sms: sms
            case .email: email
            case .voice: voice
            }
        }
        set {
            switch channel {
            case .push: push = newValue
            case .sms: sms = newValue
            case .email: email = newValue
            case .voice: voice = newValue
            }
        }
    }
}

extension NotificationType {
    /// Whether the notification cannot wait: someone may need help, or has stopped needing it.
    /// A person's ``ChannelChoice/urgent`` channels carry exactly these.
    public var isUrgent: Bool {
        // A test alert goes wherever an alert would: that is what it tests.
        category == .alerts || self == .checkInResumed || self == .testAlert
    }

    /// Whether a call carries it: someone may need help now. The person's own missed check-in
    /// is the call that asks them first ("Press 1 if you're OK"); a responder's is an SOS or a
    /// missed check-in. Acknowledgements and all-clears never ring a phone.
    public var isCalled: Bool {
        self == .nonResponsiveSelf || self == .alertActivatedReceived || self == .nonResponsiveDependent || self == .testAlert
    }
}

extension DeliveryPreferences {
    fileprivate enum CodingKeys: String, CodingKey { case push, sms, email, voice, fallback }

    /// `voice` and `fallback` came later: choices written without them have calls off and
    /// every channel at once.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            push: try container.decode(ChannelChoice.self, forKey: .push), sms: try container.decode(ChannelChoice.self, forKey: .sms),
            email: try container.decode(ChannelChoice.self, forKey: .email),
            voice: try container.decodeIfPresent(ChannelChoice.self, forKey: .voice) ?? .off,
            fallback: try container.decodeIfPresent([DeliveryChannel].self, forKey: .fallback) ?? [])
    }
}

extension DeliveryPreferences {
    /// Written as read: `fallback` only when one is set, so the common case keeps its shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(push, forKey: .push)
        try container.encode(sms, forKey: .sms)
        try container.encode(email, forKey: .email)
        try container.encode(voice, forKey: .voice)
        if !fallback.isEmpty { try container.encode(fallback, forKey: .fallback) }
    }
}
