import Foundation
import LifeSignalDomain

/// `trigger-alert`'s body: `{}` as before, or `{"location": {…}}` when the person shares where
/// they are.
public struct TriggerAlertRequest: Codable, Sendable {
    public var location: LocationWire?
    public init(location: LocationWire? = nil) { self.location = location }
}

/// A shared location on the wire: degrees, metres and an ISO-8601 time (the fix's; now when
/// left out).
public struct LocationWire: Codable, Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    public var accuracy: Double?
    public var time: String?

    public init(latitude: Double, longitude: Double, accuracy: Double? = nil, time: String? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
        self.time = time
    }

    public init(_ location: AlertLocation) {
        self.init(
            latitude: location.latitude, longitude: location.longitude, accuracy: location.accuracyMeters,
            time: Timestamp.format(location.time))
    }

    /// The location, checked: ranges as ``AlertLocation/validate()``, a time that parses and is
    /// not more than five minutes ahead of the server's clock.
    public func validated(now: Date) throws(DomainError) -> AlertLocation {
        var when = now
        if let time {
            guard time.count <= 40, let parsed = Timestamp.parse(time) else {
                throw .invalidArgument("location.time must be an ISO 8601 time, not \"\(time.prefix(40))\"")
            }
            guard parsed <= now.addingTimeInterval(300) else { throw .invalidArgument("location.time must not be in the future") }
            when = parsed
        }
        let location = AlertLocation(latitude: latitude, longitude: longitude, accuracyMeters: accuracy, time: when)
        try location.validate()
        return location
    }
}

/// `mark-safe`: a responder confirms the person of incident `alertId` is safe.
public struct MarkSafeRequest: Codable, Sendable {
    public var alertId: String
    public init(alertId: String) { self.alertId = alertId }
}

public struct MarkSafeResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var alertId: String
    public var status: String
    /// `marked_safe`.
    public var resolution: String
    public var resolvedAt: String?

    public init(success: Bool, alertId: String, status: String, resolution: String, resolvedAt: String? = nil) {
        self.success = success
        self.alertId = alertId
        self.status = status
        self.resolution = resolution
        self.resolvedAt = resolvedAt
    }
}

/// Seed `000_…`'s TriggerAlertResponse.
public struct TriggerAlertResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var alertId: String
    public var activatedAt: String
    public var status: String
    /// `sos` (LifeSignal's; optional, so a client of the seed's reply decodes it unchanged).
    public var kind: String?
    /// The place the person shared with it, as stored.
    public var location: LocationWire?

    public init(success: Bool, alertId: String, activatedAt: String, status: String, kind: String? = nil, location: LocationWire? = nil) {
        self.success = success
        self.alertId = alertId
        self.activatedAt = activatedAt
        self.status = status
        self.kind = kind
        self.location = location
    }
}

/// Seed `000_…`'s CancelAlertRequest; `alertId` may be left out to cancel whichever is active.
public struct CancelAlertRequest: Codable, Sendable {
    public var alertId: String?
    public init(alertId: String?) { self.alertId = alertId }
}

public struct CancelAlertResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var alertId: String
    public var status: String
    public var resolvedAt: String?

    public init(success: Bool, alertId: String, status: String, resolvedAt: String? = nil) {
        self.success = success
        self.alertId = alertId
        self.status = status
        self.resolvedAt = resolvedAt
    }
}

/// `userId` asks for a dependent's alert (the caller must be their responder).
public struct GetActiveAlertRequest: Codable, Sendable {
    public var userId: String?
    public init(userId: String?) { self.userId = userId }
}

/// Seed `000_…`'s GetActiveAlertResponse, plus who responded and, since escalation, what the
/// incident is. Every added field is optional, so a client that knows only the seed's fields
/// still decodes it; `kind` tells an SOS (`sos`) from an escalated missed check-in
/// (`missed_check_in`), which this function returns too.
public struct GetActiveAlertResponse: Codable, Sendable, Hashable {
    public struct Responder: Codable, Sendable, Hashable {
        public var responderId: String
        public var name: String
        public var respondedAt: String

        public init(responderId: String, name: String, respondedAt: String) {
            self.responderId = responderId
            self.name = name
            self.respondedAt = respondedAt
        }
    }

    public var hasActiveAlert: Bool
    public var alertId: String?
    public var activatedAt: String?
    public var status: String?
    public var responses: [Responder]?
    /// `sos` or `missed_check_in`.
    public var kind: String?
    /// The missed deadline (a missed check-in).
    public var deadline: String?
    /// The highest tier of responders told so far.
    public var tier: Int?
    public var acknowledgedAt: String?
    public var acknowledgedBy: String?
    /// Where the person was, if they shared it with an SOS (only they and their responders
    /// can ask this function).
    public var location: LocationWire?

    public init(_ alert: AlertRecord?) {
        hasActiveAlert = alert != nil
        alertId = alert.map { $0.id.uuidString.lowercased() }
        activatedAt = alert.map { Timestamp.format($0.activatedAt) }
        status = alert?.status.rawValue
        responses = alert?.responses.map {
            Responder(responderId: $0.responderID.description, name: $0.responderName, respondedAt: Timestamp.format($0.respondedAt))
        }
        kind = alert?.kind.rawValue
        deadline = alert?.deadline.map(Timestamp.format)
        tier = alert?.tier
        acknowledgedAt = alert?.acknowledgedAt.map(Timestamp.format)
        acknowledgedBy = alert?.acknowledgedBy?.description
        location = alert?.location.map(LocationWire.init)
    }

    public init(
        hasActiveAlert: Bool, alertId: String? = nil, activatedAt: String? = nil, status: String? = nil, responses: [Responder]? = nil, kind: String? = nil,
        deadline: String? = nil, tier: Int? = nil, acknowledgedAt: String? = nil, acknowledgedBy: String? = nil, location: LocationWire? = nil
    ) {
        self.hasActiveAlert = hasActiveAlert
        self.alertId = alertId
        self.activatedAt = activatedAt
        self.status = status
        self.responses = responses
        self.kind = kind
        self.deadline = deadline
        self.tier = tier
        self.acknowledgedAt = acknowledgedAt
        self.acknowledgedBy = acknowledgedBy
        self.location = location
    }
}

public struct RespondToAlertRequest: Codable, Sendable {
    public var alertId: String
    public init(alertId: String) { self.alertId = alertId }
}

public struct RespondToAlertResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var alertId: String
    public var respondedAt: String

    public init(success: Bool, alertId: String, respondedAt: String) {
        self.success = success
        self.alertId = alertId
        self.respondedAt = respondedAt
    }
}
