import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions

extension DemoStory {
    /// Gives Bob's phone the app's push registration and Bob a confirmed email address, as his
    /// app and an email confirmation would, so the story can show every channel.
    func reachBobEverywhere() async throws -> UserID {
        guard let row = try await backend.database.query("SELECT id FROM users WHERE phone = \(Self.bobPhone)").first else {
            throw DomainError.internal("Bob has no account")
        }
        let bob = UserID(try row.uuid("id"))
        try await backend.notifications.registerPushToken(caller: .user(bob), token: "bobs-phone-push-token")
        try await backend.database.query(
            """
            UPDATE auth_users SET email = 'bob@example.com', email_confirmed_at = \(SQLValue.timestamp(clock.now)), email_verified_at = \(SQLValue.timestamp(clock.now)) WHERE id = \(SQLValue(bob.rawValue))
            """)
        return bob
    }

    /// What left the app for `person` besides the rows `shown` already: the delivery ledger's
    /// rows, one line a message and channel, in a fixed order so the story reads the same
    /// every run. Returns every row shown so far.
    func showDeliveries(to person: UserID, name: String, after shown: Set<UUID>) async throws -> Set<UUID> {
        let rows = try await backend.deliveries.list(caller: .service, user: person, limit: 1000)
        let fresh = rows.filter { !shown.contains($0.id) }
            .sorted { ($0.createdAt, $0.title, $0.channel.rawValue) < ($1.createdAt, $1.title, $1.channel.rawValue) }
        for row in fresh {
            let channel =
                switch row.channel {
                case .sms: "SMS to \(row.address)"
                case .email: "email to \(row.address)"
                case .voice: "call to \(row.address)"
                case .push: "push to his phone"
                }
            let link =
                [NotificationType.nonResponsiveDependent.rawValue, NotificationType.alertActivatedReceived.rawValue].contains(row.kind)
                ? ", with a link to her page" : ""
            say("           Out of the app, to \(name): \(channel): \"\(row.title)\"\(link) — \(row.status.rawValue).")
        }
        return shown.union(rows.map(\.id))
    }
}
