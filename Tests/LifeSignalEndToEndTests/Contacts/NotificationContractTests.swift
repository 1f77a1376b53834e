import Foundation
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// `NotificationClient` on every adapter: a responder's notification centre, live and listed.
@Suite("NotificationClient contract", .serialized)
struct NotificationContractTests {
    /// The first element of `type` on a stream, or `nil` after `seconds`. Over Realtime on
    /// SQLite a change committed just before the join can still arrive (the server's capture
    /// had not dispatched it yet), so earlier notifications are skipped.
    static func first(
        _ type: NotificationType, on stream: AsyncThrowingStream<NotificationRecord, any Error>, within seconds: Double = streamPatience
    ) async throws -> NotificationRecord? {
        try await firstElement(of: stream, within: seconds) { $0.type == type }
    }

    @Test("a dependent's SOS reaches the responder live; listed, marked read, cleared by type", arguments: AdapterBackend.withFirebase)
    func liveAndListed(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let alice = harness.aliceClients
        let bob = harness.bobClients
        let code = try await alice.contacts.qrCode().id
        _ = try await bob.contacts.addByQRCode(code, .responder)
        let before = try await alice.notifications.notifications()

        let stream = try await alice.notifications.stream()
        // A later time than the link's notification, so "newest first" has one answer.
        harness.test.clock.advance(by: 60)
        _ = try await bob.alerts.trigger()
        let live = try #require(try await Self.first(.alertActivatedReceived, on: stream), "no alert notification arrived")
        #expect(live.type == .alertActivatedReceived && live.userID == UserID(harness.aliceID))
        #expect(live.contactID == UserID(harness.bobID) && !live.isRead)

        let listed = try await alice.notifications.notifications()
        #expect(listed.first == live)
        #expect(listed.count == before.count + 1)
        // Bob sees none of Alice's notifications.
        #expect(try await bob.notifications.notifications().allSatisfy { $0.userID == UserID(harness.bobID) })

        let unread = listed.filter { !$0.isRead }.count
        #expect(try await alice.notifications.markRead([live.id]) == 1)
        #expect(try await alice.notifications.markRead(nil) == unread - 1)
        #expect(try await alice.notifications.notifications().allSatisfy(\.isRead))
        await #expect(throws: DomainError.self) { _ = try await bob.notifications.markRead([live.id]) }

        #expect(try await alice.notifications.clear([.alertActivatedReceived]) == 1)
        #expect(try await alice.notifications.notifications().count == before.count)
    }
}
