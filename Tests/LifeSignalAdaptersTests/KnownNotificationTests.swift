import Foundation
import LifeSignalDomain
import LifeSignalFunctions
import SupabaseREST
import Testing

@testable import LifeSignalAdapters

/// An app meets notification types a newer server added: it skips them instead of failing the
/// whole list, and still refuses what is malformed.
@Suite("Notifications of types this app does not know")
struct KnownNotificationTests {
    static func row(type: String, id: String = "6f1c7c3e-2f55-4d8b-9a43-0c2f1f9a2a01") -> String {
        """
        {"id": "\(id)", "user_id": "0b7d3c1e-4a7f-4c55-8f1e-2d9b8c7a6e10", "type": "\(type)", "title": "T", "body": "B",
         "contact_id": null, "is_read": false, "created_at": "2026-11-29T07:00:00+00:00"}
        """
    }

    @Test("a list with an unknown type keeps the known rows, in order")
    func supabaseRows() throws {
        let json =
            "[" + Self.row(type: "check_in_reminder") + ", " + Self.row(type: "phone_call_missed") + ", "
            + Self.row(type: "system", id: "6f1c7c3e-2f55-4d8b-9a43-0c2f1f9a2a02") + "]"
        let rows = try SupabaseJSON.makeDecoder().decode([KnownNotification].self, from: Data(json.utf8))
        #expect(rows.count == 3)
        #expect(rows.compactMap(\.record).map(\.type) == [.checkInReminder, .system])
    }

    @Test("a known type that is malformed is still an error")
    func malformedStillFails() {
        let json = Self.row(type: "system").replacingOccurrences(of: "\"is_read\": false", with: "\"is_read\": \"no\"")
        #expect(throws: DecodingError.self) { _ = try SupabaseJSON.makeDecoder().decode(KnownNotification.self, from: Data(json.utf8)) }
    }

    @Test("the Firebase wire skips an unknown type")
    func firebaseWire() throws {
        let record = NotificationRecord(
            id: UUID(), userID: UserID(UUID()), type: .system, title: "T", body: "B", contactID: nil, isRead: false,
            createdAt: Date(timeIntervalSince1970: 1_800_000_000))
        var wire = NotificationResponse(record)
        #expect(try NotificationRecord(wire: wire)?.type == .system)
        wire.type = "phone_call_missed"
        #expect(try NotificationRecord(wire: wire) == nil)
    }
}
