import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// The rows of `contact_role_requests`, always written inside the caller's transaction after
/// both people's `users` rows are locked (``ContactPairs/lock(_:_:in:)``), as every change to
/// a pair is: so a request cannot outlive the relation it belongs to, and two writers on one
/// pair never wait on each other in opposite orders.
enum RoleRequestStore {
    private static let select: SQL = """
        SELECT r.id, r.requester_id, r.owner_id, r.created_at,
               q.first_name AS requester_first_name, q.last_name AS requester_last_name, q.phone AS requester_phone,
               o.first_name AS owner_first_name, o.last_name AS owner_last_name, o.phone AS owner_phone
        FROM contact_role_requests r JOIN users q ON q.id = r.requester_id JOIN users o ON o.id = r.owner_id
        """

    /// The pending requests addressed to `me` (`received`) or sent by `me`, oldest first.
    static func requests(received: Bool, by me: UserID, in connection: any SQLConnection) async throws -> [RoleRequest] {
        let side: SQL = received ? " WHERE r.owner_id = \(me)" : " WHERE r.requester_id = \(me)"
        return try await connection.query(select + side + " ORDER BY r.created_at, r.id").map(request)
    }

    /// The one pending request from `requester` to `owner`, if any.
    static func pending(requester: UserID, owner: UserID, in connection: any SQLConnection) async throws -> RoleRequest? {
        try await connection.first(select + " WHERE r.requester_id = \(requester) AND r.owner_id = \(owner)").map(request)
    }

    /// Who asks and whom, for the request `id`, or `nil` when there is none.
    static func parties(of id: UUID, in connection: any SQLConnection) async throws -> (requester: UserID, owner: UserID)? {
        guard let row = try await connection.first("SELECT requester_id, owner_id FROM contact_role_requests WHERE id = \(id)")
        else { return nil }
        return (UserID(try row.uuid("requester_id")), UserID(try row.uuid("owner_id")))
    }

    /// Asks `owner` to make `requester` their responder and tells the owner; asking again
    /// answers the pending request, without telling them twice.
    static func open(requester: UserID, owner: UserID, now: Date, in connection: any SQLConnection) async throws -> (RoleRequest, Outbox) {
        if let pending = try await pending(requester: requester, owner: owner, in: connection) { return (pending, Outbox()) }
        let id = UUID()
        try await connection.query(
            """
            INSERT INTO contact_role_requests (id, requester_id, owner_id, created_at) VALUES (\(id), \(requester), \(owner), \(now))
            """)
        guard let request = try await pending(requester: requester, owner: owner, in: connection) else {
            throw DomainError.notFound("Role request")
        }
        var outbox = changed(id, requester: requester, owner: owner, .insert, now: now)
        outbox.append(
            try await NotificationStore.outbox(
                [
                    NotificationDraft(
                        recipient: owner, type: .contactRoleChanged, title: "Responder request",
                        body: "\(request.requesterName) asks to become your responder.", contactID: requester)
                ], now: now, in: connection))
        return (request, outbox)
    }

    /// Deletes the request `id` when `condition` holds for it; `nil` when nothing matched.
    static func take(_ id: UUID, where condition: SQL, now: Date, in connection: any SQLConnection) async throws -> (
        requester: UserID, owner: UserID, outbox: Outbox
    )? {
        guard
            let row = try await connection.first(
                "DELETE FROM contact_role_requests WHERE id = \(id) AND " + condition + " RETURNING requester_id, owner_id")
        else { return nil }
        let requester = UserID(try row.uuid("requester_id"))
        let owner = UserID(try row.uuid("owner_id"))
        return (requester, owner, changed(id, requester: requester, owner: owner, .delete, now: now))
    }

    /// Deletes the request from `requester` to `owner`, if any (it was answered some other way,
    /// or withdrawn).
    static func withdraw(requester: UserID, owner: UserID, now: Date, in connection: any SQLConnection) async throws -> Outbox {
        try await delete("requester_id = \(requester) AND owner_id = \(owner)", now: now, in: connection)
    }

    /// Deletes the requests between `a` and `b` either way (the relation is going).
    static func deleteBetween(_ a: UserID, _ b: UserID, now: Date, in connection: any SQLConnection) async throws -> Outbox {
        try await delete("(requester_id = \(a) AND owner_id = \(b)) OR (requester_id = \(b) AND owner_id = \(a))", now: now, in: connection)
    }

    private static func delete(_ condition: SQL, now: Date, in connection: any SQLConnection) async throws -> Outbox {
        let rows = try await connection.query("DELETE FROM contact_role_requests WHERE " + condition + " RETURNING id, requester_id, owner_id")
        var outbox = Outbox()
        for row in rows {
            outbox.append(
                changed(
                    try row.uuid("id"), requester: UserID(try row.uuid("requester_id")), owner: UserID(try row.uuid("owner_id")), .delete, now: now))
        }
        return outbox
    }

    /// A change both sides hear of (both may read the row).
    private static func changed(_ id: UUID, requester: UserID, owner: UserID, _ kind: ChangeEvent.Kind, now: Date) -> Outbox {
        var outbox = Outbox()
        outbox.change("contact_role_requests", kind, id, owner: requester, at: now)
        outbox.change("contact_role_requests", kind, id, owner: owner, at: now)
        return outbox
    }

    private static func request(_ row: SQLRow) throws -> RoleRequest {
        RoleRequest(
            id: try row.uuid("id"), requesterID: UserID(try row.uuid("requester_id")),
            requesterName: PersonName.display(row, prefix: "requester_"),
            ownerID: UserID(try row.uuid("owner_id")), ownerName: PersonName.display(row, prefix: "owner_"),
            createdAt: try row.date("created_at"))
    }
}
