import ConcurrencyExtras
import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain
import Testing

@testable import LifeSignalFeatures

/// The Pings screen: both directions of pending pings, their order and the badge; pinging,
/// withdrawing, answering one or all; failures.
@MainActor
@Suite(.reportsIssues) struct PingsFeatureTests {
    typealias Feature = PingsFeature

    nonisolated static func person(
        _ name: String, _ id: Int, roles: ContactRoles, pingedMeMinutesAgo incoming: Double? = nil, iPingedMinutesAgo outgoing: Double? = nil
    ) -> ContactSummary {
        ContactSummary(
            id: UserID(UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", id)) ?? UUID()), name: name,
            phone: "+1555000\(3000 + id)", roles: roles, addedAt: Fixtures.start,
            incomingPingAt: incoming.map { Fixtures.start.addingTimeInterval(-$0 * 60) },
            outgoingPingAt: outgoing.map { Fixtures.start.addingTimeInterval(-$0 * 60) })
    }

    // Responders who pinged me.
    nonisolated static let maya = person("Maya", 1, roles: .responder, pingedMeMinutesAgo: 5)
    nonisolated static let carl = person("Carl", 2, roles: .responder, pingedMeMinutesAgo: 30)
    nonisolated static let quiet = person("Quinn", 3, roles: .responder)
    // Dependents I pinged, and one I did not.
    nonisolated static let joe = person("Joe", 4, roles: .dependent, iPingedMinutesAgo: 2)
    nonisolated static let ann = person("ann", 5, roles: .dependent, iPingedMinutesAgo: 45)
    nonisolated static let zoe = person("Zoe", 6, roles: .dependent)
    /// Both ways at once: she pinged me and I pinged her.
    nonisolated static let bea = person("Bea", 7, roles: .both, pingedMeMinutesAgo: 60, iPingedMinutesAgo: 10)
    nonisolated static let everyone = [maya, carl, quiet, joe, ann, zoe, bea]

    func makeStore(_ state: Feature.State = .init(), _ dependencies: @escaping (inout DependencyValues) -> Void = { _ in })
        -> TestStore<Feature.State, Feature.Action>
    {
        TestStore(initialState: state) {
            Feature()
        } withDependencies: {
            dependencies(&$0)
        }
    }

    @Test func bothDirectionsOldestFirstAndTheBadge() async {
        let store = makeStore { $0.contactsClient.contacts = { ContactList(contacts: Self.everyone) } }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(.loaded(.success(ContactList(contacts: Self.everyone)))) {
            $0.isLoading = false
            $0.contacts = Self.everyone
        }
        #expect(store.state.received.map(\.name) == ["Bea", "Carl", "Maya"])
        #expect(store.state.sent.map(\.name) == ["ann", "Bea", "Joe"])
        #expect(store.state.pingable.map(\.name) == ["Zoe"])
        #expect(store.state.badge == 3)
    }

    @Test func pingsAtTheSameMomentFallBackToName() {
        let state = Feature.State(contacts: [
            Self.person("zed", 8, roles: .responder, pingedMeMinutesAgo: 5),
            Self.person("Amy", 9, roles: .responder, pingedMeMinutesAgo: 5),
        ])
        #expect(state.received.map(\.name) == ["Amy", "zed"])
        #expect(state.sent.isEmpty && state.pingable.isEmpty)
    }

    @Test func aListThatFailsIsExplained() async {
        let store = makeStore { $0.contactsClient.contacts = { throw DomainError.unauthenticated } }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(.loaded(.failure(.unauthenticated))) {
            $0.isLoading = false
            $0.errorMessage = "Sign in first"
        }
    }

    @Test func pingADependentThenReload() async {
        let pingID = UUID(uuidString: "00000000-0000-4000-8000-0000000000aa") ?? UUID()
        let pinged = LockIsolated<[UserID]>([])
        let zoePinged = Self.person("Zoe", 6, roles: .dependent, iPingedMinutesAgo: 0)
        let store = makeStore(Feature.State(contacts: [Self.zoe], errorMessage: "Earlier failure")) {
            $0.pingClient.ping = { id in
                pinged.withValue { $0.append(id) }
                return pingID
            }
            $0.contactsClient.contacts = { ContactList(contacts: [zoePinged]) }
        }
        await store.send(.pingTapped(Self.zoe.id)) { $0.errorMessage = nil }
        await store.receive(.pinged(.success(pingID))) { $0.isLoading = true }
        await store.receive(.loaded(.success(ContactList(contacts: [zoePinged])))) {
            $0.isLoading = false
            $0.contacts = [zoePinged]
        }
        #expect(pinged.value == [Self.zoe.id])
        #expect(store.state.sent == [zoePinged] && store.state.pingable.isEmpty)
    }

    @Test func withdrawMyPingThenReload() async {
        let withdrawn = LockIsolated<[UserID]>([])
        let store = makeStore(Feature.State(contacts: [Self.joe])) {
            $0.pingClient.clear = { id in withdrawn.withValue { $0.append(id) } }
            $0.contactsClient.contacts = { ContactList(contacts: [Self.person("Joe", 4, roles: .dependent)]) }
        }
        await store.send(.withdrawTapped(Self.joe.id))
        await store.receive(.withdrawn(.success(Self.joe.id))) { $0.isLoading = true }
        await store.receive(.loaded(.success(ContactList(contacts: [Self.person("Joe", 4, roles: .dependent)])))) {
            $0.isLoading = false
            $0.contacts = [Self.person("Joe", 4, roles: .dependent)]
        }
        #expect(withdrawn.value == [Self.joe.id])
        #expect(store.state.sent.isEmpty && store.state.pingable.map(\.name) == ["Joe"])
    }

    @Test func answerOnePingThenReload() async {
        let answered = LockIsolated<[UserID]>([])
        let after = [Self.person("Maya", 1, roles: .responder), Self.carl]
        let store = makeStore(Feature.State(contacts: [Self.maya, Self.carl])) {
            $0.pingClient.respond = { id in answered.withValue { $0.append(id) } }
            $0.contactsClient.contacts = { ContactList(contacts: after) }
        }
        await store.send(.respondTapped(Self.maya.id))
        await store.receive(.responded(.success(1))) { $0.isLoading = true }
        await store.receive(.loaded(.success(ContactList(contacts: after)))) {
            $0.isLoading = false
            $0.contacts = after
        }
        #expect(answered.value == [Self.maya.id] && store.state.badge == 1)
    }

    @Test func answerAllAsksFirstAndNeedsSomeoneWaiting() async {
        let answered = LockIsolated(0)
        let waiting = LockIsolated([Self.maya, Self.carl, Self.joe])
        let after = [Self.person("Maya", 1, roles: .responder), Self.person("Carl", 2, roles: .responder), Self.joe]
        let store = makeStore(Feature.State(contacts: waiting.value)) {
            $0.contactsClient.contacts = { ContactList(contacts: waiting.value) }
            $0.pingClient.respondToAll = {
                answered.withValue { $0 += 1 }
                waiting.setValue(after)
                return 2
            }
        }
        await store.send(.respondToAllTapped) { $0.isConfirmingRespondAll = true }
        await store.send(.respondToAllCancelled) { $0.isConfirmingRespondAll = false }
        // A stale confirmation (the dialog already gone) answers nothing.
        await store.send(.respondToAllConfirmed)
        #expect(answered.value == 0)

        await store.send(.respondToAllTapped) { $0.isConfirmingRespondAll = true }
        await store.send(.respondToAllConfirmed) { $0.isConfirmingRespondAll = false }
        await store.receive(.responded(.success(2))) { $0.isLoading = true }
        await store.receive(.loaded(.success(ContactList(contacts: after)))) {
            $0.isLoading = false
            $0.contacts = after
        }
        // My own ping to Joe is not mine to answer, and stays.
        #expect(answered.value == 1 && store.state.badge == 0 && store.state.sent == [Self.joe])
        await store.send(.respondToAllTapped)
    }

    @Test func failuresAreExplainedWithoutAReload() async {
        let store = makeStore(Feature.State(contacts: [Self.maya, Self.joe, Self.zoe])) {
            $0.pingClient.ping = { _ in throw DomainError.alreadyExists("A pending ping") }
            $0.pingClient.clear = { _ in throw DomainError.notFound("Ping") }
            $0.pingClient.respond = { _ in throw DomainError.forbidden("Not your responder") }
            $0.pingClient.respondToAll = { throw DomainError.internal("database unavailable") }
        }
        await store.send(.pingTapped(Self.zoe.id))
        await store.receive(.pinged(.failure(.alreadyExists("A pending ping")))) { $0.errorMessage = "A pending ping already exists" }
        await store.send(.withdrawTapped(Self.joe.id)) { $0.errorMessage = nil }
        await store.receive(.withdrawn(.failure(.notFound("Ping")))) { $0.errorMessage = "Ping was not found" }
        await store.send(.respondTapped(Self.maya.id)) { $0.errorMessage = nil }
        await store.receive(.responded(.failure(.forbidden("Not your responder")))) { $0.errorMessage = "Not your responder" }
        await store.send(.respondToAllTapped) { $0.isConfirmingRespondAll = true }
        await store.send(.respondToAllConfirmed) {
            $0.isConfirmingRespondAll = false
            $0.errorMessage = nil
        }
        await store.receive(.responded(.failure(.internal("database unavailable")))) {
            $0.errorMessage = "Internal error: database unavailable"
        }
        #expect(store.state.contacts == [Self.maya, Self.joe, Self.zoe])
    }
}
