import Foundation

/// What an incident is: an SOS the person raised, or a missed check-in the sweep escalated.
/// Both live in `alerts`; at most one is active per person.
public enum AlertKind: String, Hashable, Codable, Sendable, CaseIterable {
    case sos
    case missedCheckIn = "missed_check_in"
}

/// How an incident ended.
public enum AlertResolution: String, Hashable, Codable, Sendable, CaseIterable {
    /// The person checked in (a missed check-in).
    case checkedIn = "checked_in"
    /// The person cancelled it (an SOS, or a missed check-in ended from the app).
    case cancelled
    /// A responder confirmed the person is safe.
    case markedSafe = "marked_safe"
}

/// Where the person was when they raised an SOS, if they shared it. Only they and their
/// responders read it (docs/security.md, the model).
public struct AlertLocation: Hashable, Codable, Sendable {
    public var latitude: Double
    public var longitude: Double
    /// Radius of the fix in metres, when the device gave one.
    public var accuracyMeters: Double?
    /// When the fix was taken.
    public var time: Date

    public init(latitude: Double, longitude: Double, accuracyMeters: Double? = nil, time: Date) {
        self.latitude = latitude
        self.longitude = longitude
        self.accuracyMeters = accuracyMeters
        self.time = time
    }

    /// The widest accuracy taken: 100 km (anything coarser says nothing useful).
    public static let maximumAccuracyMeters = 100_000.0

    /// Latitude −90…90, longitude −180…180, accuracy 0…100 km, all finite; the message names the
    /// field as the request spells it (`location.latitude`, …).
    public func validate() throws(DomainError) {
        guard latitude.isFinite, (-90...90).contains(latitude) else {
            throw .invalidArgument("location.latitude must be from -90 to 90, not \(latitude)")
        }
        guard longitude.isFinite, (-180...180).contains(longitude) else {
            throw .invalidArgument("location.longitude must be from -180 to 180, not \(longitude)")
        }
        if let accuracy = accuracyMeters, !(accuracy.isFinite && (0...Self.maximumAccuracyMeters).contains(accuracy)) {
            throw .invalidArgument("location.accuracy must be from 0 to 100000 metres, not \(accuracy)")
        }
    }
}
