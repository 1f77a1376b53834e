import Dependencies
import DependenciesMacros
import Foundation
import LifeSignalDomain

/// "Are you OK?": a responder pings a dependent, who answers one or all. Pending pings show on
/// each side's contact (``ContactSummary/incomingPingAt``, ``ContactSummary/outgoingPingAt``).
@DependencyClient
public struct PingClient: Sendable {
    /// Pings one of my dependents; returns the ping's id.
    public var ping: @Sendable (_ dependent: UserID) async throws -> UUID
    /// Answers the pending ping from one of my responders.
    public var respond: @Sendable (_ responder: UserID) async throws -> Void
    /// Answers every pending ping; returns how many.
    public var respondToAll: @Sendable () async throws -> Int
    /// Withdraws my pending ping to a dependent.
    public var clear: @Sendable (_ dependent: UserID) async throws -> Void
}

extension PingClient: TestDependencyKey {
    public static let testValue = PingClient()

    /// Accepts every call, as a server with a pending ping everywhere would.
    public static let previewValue = PingClient(
        ping: { _ in UUID() }, respond: { _ in }, respondToAll: { 1 }, clear: { _ in })
}

extension DependencyValues {
    public var pingClient: PingClient {
        get { self[PingClient.self] }
        set { self[PingClient.self] = newValue }
    }
}
