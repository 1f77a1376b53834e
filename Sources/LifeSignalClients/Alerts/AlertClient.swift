import ConcurrencyExtras
import Dependencies
import DependenciesMacros
import Foundation
import LifeSignalDomain

/// SOS: raise and cancel my alert; see and answer my dependents' alerts.
@DependencyClient
public struct AlertClient: Sendable {
    /// Raises my alert; every responder is told at once. One already active is
    /// ``DomainError/failedPrecondition(_:)`` (the seed's `alreadyActive`).
    public var trigger: @Sendable () async throws -> AlertRecord
    /// Raises my alert with where I am, when I choose to share it: my responders are told the
    /// place with the alert (only they and I read it). A location out of range is
    /// ``DomainError/invalidArgument(_:)``.
    public var triggerSharing: @Sendable (_ location: AlertLocation) async throws -> AlertRecord
    /// Ends my active alert (the given one, or whichever is active).
    public var cancel: @Sendable (_ alertID: UUID?) async throws -> Void
    /// My active alert, or a dependent's when `of` names one I am a responder for.
    public var activeAlert: @Sendable (_ of: UserID?) async throws -> AlertRecord?
    /// Tells the dependent I am on it; returns when that was recorded.
    public var respond: @Sendable (_ alertID: UUID) async throws -> Date
    /// A responder confirms the dependent of this incident (SOS or missed check-in) is safe:
    /// it ends as ``AlertResolution/markedSafe`` and everyone told gets the all-clear. Returns
    /// when it ended. One already over, or of someone I do not respond for, is refused.
    public var markSafe: @Sendable (_ alertID: UUID) async throws -> Date
    /// My own active alert each time it changes, starting after the call: raised, answered
    /// by a responder (``AlertRecord/responses`` grows), and `nil` once it is cancelled. Read
    /// ``activeAlert`` (with `nil`) for the current value.
    public var stream: @Sendable () async throws -> AsyncThrowingStream<AlertRecord?, any Error>
    /// Sends "This is a test" to all my responders on every channel each chose; returns what it
    /// found so far (a few a day: ``DomainError/rateLimited(retryAfter:)`` past them).
    public var sendTestAlert: @Sendable () async throws -> TestAlertReport
    /// My last test alert as it stands now: who confirmed, what reached whom; `nil` if none.
    public var testAlert: @Sendable () async throws -> TestAlertReport?
}

extension AlertClient: TestDependencyKey {
    public static let testValue = AlertClient()

    /// One person's alert, raised and cancelled in memory; the stream delivers each change.
    public static var previewValue: AlertClient {
        let me = UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000b001") ?? UUID())
        let active = LockIsolated<AlertRecord?>(nil)
        let changes = AsyncThrowingStream<AlertRecord?, any Error>.makeStream()
        let raise: @Sendable (AlertLocation?) throws -> AlertRecord = { location in
            try location?.validate()
            return try active.withValue { current in
                if current != nil { throw DomainError.failedPrecondition("An alert is already active") }
                let alert = AlertRecord(
                    id: UUID(), userID: me, status: .active, activatedAt: Date(timeIntervalSince1970: 1_800_000_000), location: location)
                current = alert
                changes.continuation.yield(alert)
                return alert
            }
        }
        let test = LockIsolated<TestAlertReport?>(nil)
        return AlertClient(
            trigger: { try raise(nil) },
            triggerSharing: { try raise($0) },
            cancel: { _ in
                guard active.value != nil else { throw DomainError.notFound("Active alert") }
                active.setValue(nil)
                changes.continuation.yield(nil)
            },
            activeAlert: { _ in active.value },
            respond: { _ in Date(timeIntervalSince1970: 1_800_000_060) },
            markSafe: { id in
                // The preview has only my own alert; a responder's view of it ends it the same way.
                try active.withValue { current in
                    guard current?.id == id else { throw DomainError.notFound("Active alert") }
                    current = nil
                    changes.continuation.yield(nil)
                    return Date(timeIntervalSince1970: 1_800_000_120)
                }
            },
            stream: { changes.stream },
            sendTestAlert: {
                let report = TestAlertReport(
                    sentAt: Date(timeIntervalSince1970: 1_800_000_000),
                    responders: [
                        .init(
                            id: UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000a001") ?? UUID()), name: "Maya Lopez",
                            attempts: [.init(channel: .push, status: "sent"), .init(channel: .sms, status: "delivered")])
                    ])
                test.setValue(report)
                return report
            },
            testAlert: { test.value })
    }
}

extension DependencyValues {
    public var alertClient: AlertClient {
        get { self[AlertClient.self] }
        set { self[AlertClient.self] = newValue }
    }
}
