import ConcurrencyExtras
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
    /// My responders whose ping waits for my answer (``PingList/pending``), from the contact list.
    public var pending: @Sendable () async throws -> [ContactSummary]
    /// My dependents I pinged who have not answered yet (``PingList/sent``), from the contact list.
    public var sent: @Sendable () async throws -> [ContactSummary]
    /// Both lists each time either changes, starting after the call: read ``pending`` and
    /// ``sent`` for the current value. Follows the contact list's stream.
    public var stream: @Sendable () async throws -> AsyncThrowingStream<PingList, any Error>
}

/// The pings waiting on either side, as the contact list shows them.
public struct PingList: Sendable, Hashable {
    /// Responders whose ping waits for my answer (``ContactSummary/incomingPingAt`` set).
    public var pending: [ContactSummary]
    /// Dependents I pinged who have not answered (``ContactSummary/outgoingPingAt`` set).
    public var sent: [ContactSummary]

    public init(pending: [ContactSummary] = [], sent: [ContactSummary] = []) {
        self.pending = pending
        self.sent = sent
    }

    /// The pings in a contact list, in the list's order.
    public init(_ list: ContactList) {
        self.init(
            pending: list.contacts.filter { $0.incomingPingAt != nil },
            sent: list.contacts.filter { $0.outgoingPingAt != nil })
    }

    /// The ping lists each time `contacts.stream` delivers a list whose pings differ from the
    /// ones before (first, those of ``ContactsClient/contacts`` as the stream starts).
    public static func changes(of contacts: ContactsClient) async throws -> AsyncThrowingStream<PingList, any Error> {
        let lists = try await contacts.stream()
        let start = PingList(try await contacts.contacts())
        return AsyncThrowingStream { continuation in
            let task = Task {
                var last = start
                do {
                    for try await list in lists {
                        let pings = PingList(list)
                        if pings != last { continuation.yield(pings) }
                        last = pings
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

extension PingClient: TestDependencyKey {
    public static let testValue = PingClient()

    /// Maya (a responder) waits for my answer; pinging, answering and clearing change the
    /// lists in memory, and the stream delivers each change (a call that changes nothing,
    /// such as answering when nothing waits, delivers nothing).
    public static var previewValue: PingClient {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let maya = ContactSummary(
            id: UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000a001") ?? UUID()), name: "Maya Lopez",
            phone: "+15550100001", roles: .responder, addedAt: now.addingTimeInterval(-30 * 86400),
            incomingPingAt: now.addingTimeInterval(-600))
        let joeID = UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000a002") ?? UUID())
        let state = LockIsolated(PingList(pending: [maya]))
        let changes = AsyncThrowingStream<PingList, any Error>.makeStream()
        @Sendable func save<T: Sendable>(_ change: @Sendable (inout PingList) -> T) -> T {
            let (result, before, saved) = state.withValue { pings in
                let before = pings
                return (change(&pings), before, pings)
            }
            if saved != before { changes.continuation.yield(saved) }
            return result
        }
        return PingClient(
            ping: { dependent in
                save { pings in
                    pings.sent.removeAll { $0.id == dependent }
                    pings.sent.append(
                        ContactSummary(
                            id: dependent, name: dependent == joeID ? "Grandpa Joe" : "Sam Rivera",
                            phone: dependent == joeID ? "+15550100002" : "+15550100003", roles: .dependent,
                            addedAt: now.addingTimeInterval(-60 * 86400), outgoingPingAt: now))
                }
                return UUID()
            },
            respond: { responder in save { $0.pending.removeAll { $0.id == responder } } },
            respondToAll: {
                save { pings in
                    defer { pings.pending.removeAll() }
                    return pings.pending.count
                }
            },
            clear: { dependent in save { $0.sent.removeAll { $0.id == dependent } } },
            pending: { state.value.pending },
            sent: { state.value.sent },
            stream: { changes.stream })
    }
}

extension DependencyValues {
    public var pingClient: PingClient {
        get { self[PingClient.self] }
        set { self[PingClient.self] = newValue }
    }
}
