import ConcurrencyExtras
import Dependencies
import DependenciesMacros
import Foundation
import LifeSignalDomain

/// Checking in and reading back where the signed-in person stands.
@DependencyClient
public struct CheckInClient: Sendable {
    /// Records a check-in now; refused with ``DomainError/checkInTooSoon(retryAfter:)`` within
    /// 5 minutes of the last one.
    public var checkIn: @Sendable () async throws -> CheckInResult
    /// The signed-in person's last check-in and interval.
    public var status: @Sendable () async throws -> CheckInStatus
    /// My interval and reminder lead.
    public var settings: @Sendable () async throws -> CheckInSettings
    /// Sets the interval and reminder lead (either may stay as is) and moves the deadline to
    /// last check-in + the new interval. A lead as long as the interval is refused.
    public var updateSettings: @Sendable (_ interval: CheckInInterval?, _ reminderLead: ReminderLead?) async throws -> CheckInSettings
    /// My check-ins, newest first, at most `limit` (1…500).
    public var history: @Sendable (_ limit: Int) async throws -> [CheckInEntry]
    /// My escalation: grace, tier delay, repeats, the pause and my responders' tiers.
    public var escalation: @Sendable () async throws -> CheckInEscalation
    /// Changes any of grace, tier delay and repeat (seconds; `nil` keeps one as is, a repeat of
    /// 0 turns repeats off). Each is checked against ``EscalationSettings``' ranges.
    public var updateEscalation: @Sendable (_ graceSeconds: Int?, _ tierDelaySeconds: Int?, _ repeatSeconds: Int?) async throws -> CheckInEscalation
    /// Puts one of my responders in a tier (1…9); anyone who is not my responder is refused.
    public var setResponderTier: @Sendable (_ responder: UserID, _ tier: Int) async throws -> CheckInEscalation
    /// Pauses reminders and escalation until a time (after now, at most 30 days ahead); my
    /// responders are told.
    public var pause: @Sendable (_ until: Date) async throws -> CheckInEscalation
    /// Ends a pause now; the deadline runs from now again.
    public var resume: @Sendable () async throws -> CheckInEscalation
    /// Records a check-in with my check-in PIN (or my duress PIN, which answers exactly the same).
    /// A wrong PIN is ``DomainError/forbidden(_:)``; too many are
    /// ``DomainError/rateLimited(retryAfter:)``.
    public var checkInWithPIN: @Sendable (_ pin: String) async throws -> CheckInResult
    /// Whether my check-ins ask for a PIN, and whether I have a duress PIN.
    public var pinSettings: @Sendable () async throws -> CheckInPINSettings
    /// Sets both PINs (``CheckInPIN``'s rules): `pin` `nil` removes both, `duressPIN` `nil`
    /// removes the duress PIN.
    public var setPINs: @Sendable (_ pin: String?, _ duressPIN: String?) async throws -> CheckInPINSettings
}

extension CheckInClient: TestDependencyKey {
    public static let testValue = CheckInClient()

    /// A person who checked in 3 hours ago on a 24-hour interval.
    /// Fresh on every read, so two previews (or two tests) never share a cooldown.
    public static var previewValue: CheckInClient {
        let last = LockIsolated<Date?>(Date().addingTimeInterval(-3 * 3600))
        let settings = LockIsolated(CheckInSettings())
        let escalation = LockIsolated(
            CheckInEscalation(responders: [
                .init(id: UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000a001") ?? UUID()), name: "Maya Lopez", tier: 1),
                .init(id: UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000a003") ?? UUID()), name: "Sam", tier: 2),
            ]))
        let pins = LockIsolated<(pin: String, duress: String?)?>(nil)
        let entries = LockIsolated(
            (1...5).map { day in
                CheckInEntry(id: UUID(), checkedInAt: Date().addingTimeInterval(-3 * 3600 - Double(day) * 86400), source: .manual)
            })
        return CheckInClient(
            checkIn: {
                let now = Date()
                try CheckInRules.validateCheckIn(at: now, last: last.value)
                last.setValue(now)
                entries.withValue { $0.insert(CheckInEntry(id: UUID(), checkedInAt: now, source: .manual), at: 0) }
                return CheckInResult(checkedInAt: now, deadline: now.addingTimeInterval(CheckInInterval.default.seconds), interval: .default)
            },
            status: { CheckInStatus(lastCheckIn: last.value, interval: settings.value.interval) },
            settings: { settings.value },
            updateSettings: { interval, lead in
                var next = settings.value
                if let interval { next.interval = interval }
                if let lead { next.reminderLead = lead }
                try next.validate()
                let saved = next
                settings.setValue(saved)
                return saved
            },
            history: { limit in Array(entries.value.prefix(limit)) },
            escalation: { escalation.value },
            updateEscalation: { grace, delay, repeats in
                try escalation.withValue { state in
                    var next = state.settings
                    if let grace { next.graceSeconds = grace }
                    if let delay { next.tierDelaySeconds = delay }
                    if let repeats { next.repeatSeconds = repeats == 0 ? nil : repeats }
                    try next.validate()
                    state.settings = next
                    return state
                }
            },
            setResponderTier: { responder, tier in
                try EscalationSettings.validate(tier: tier)
                return try escalation.withValue { state in
                    guard let index = state.responders.firstIndex(where: { $0.id == responder }) else {
                        throw DomainError.notFound("Responder \(responder)")
                    }
                    state.responders[index].tier = tier
                    state.responders.sort { $0.tier < $1.tier }
                    return state
                }
            },
            pause: { until in
                guard until > Date(), until <= Date().addingTimeInterval(EscalationSettings.longestPause) else {
                    throw DomainError.invalidArgument("until must be after now and at most 30 days ahead")
                }
                return escalation.withValue {
                    $0.pausedUntil = until
                    return $0
                }
            },
            resume: {
                escalation.withValue {
                    $0.pausedUntil = nil
                    return $0
                }
            },
            checkInWithPIN: { pin in
                guard let set = pins.value, pin == set.pin || pin == set.duress else {
                    throw DomainError.forbidden("That is not your check-in PIN")
                }
                let now = Date()
                try CheckInRules.validateCheckIn(at: now, last: last.value)
                last.setValue(now)
                return CheckInResult(checkedInAt: now, deadline: now.addingTimeInterval(settings.value.interval.seconds), interval: settings.value.interval)
            },
            pinSettings: { CheckInPINSettings(hasPIN: pins.value != nil, hasDuressPIN: pins.value?.duress != nil) },
            setPINs: { pin, duress in
                try CheckInPIN.validate(pin: pin, duressPIN: duress)
                pins.setValue(pin.map { ($0, duress) })
                return CheckInPINSettings(hasPIN: pin != nil, hasDuressPIN: duress != nil)
            }
        )
    }
}

extension DependencyValues {
    public var checkInClient: CheckInClient {
        get { self[CheckInClient.self] }
        set { self[CheckInClient.self] = newValue }
    }
}
