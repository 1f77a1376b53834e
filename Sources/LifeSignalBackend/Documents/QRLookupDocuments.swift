import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// `qr_lookup/{uid}`: who owns a QR code, as the original app's lookup collection.
///
/// The original rule let any signed-in person read every document there, so anyone could
/// list every code and link themselves to anyone. Here knowing a code is the capability, as
/// with `lookup-qr-code`: a person reads their own document, and finds another's only by a
/// query with an equality filter on `qrCodeId`, which matches at most that one code's owner
/// and reveals what `lookup-qr-code` does (the name) and nothing more, and only while the code
/// links (``QRCodes``). A query without that filter, a read of another's document and every
/// write are refused.
enum QRLookupDocuments {
    static let collection = DocumentContract.qrLookupCollection

    static func snapshot(user: UserID, qrCode: UUID, name: String) throws(DomainError) -> DocumentSnapshot {
        DocumentSnapshot(
            path: try DocumentPath(segments: [collection, user.description]),
            data: ["uid": .string(user.description), "qrCodeId": .string(qrCode.uuidString.lowercased()), "name": .string(name)])
    }

    /// The owner of a code that links now, as `lookup-qr-code` finds them: an expired or spent
    /// code finds nobody, as an unknown one.
    static func owner(of code: UUID, now: Date, in connection: any SQLConnection) async throws -> DocumentSnapshot? {
        guard let row = try await QRCodes.owner(of: code, now: now, in: connection) else { return nil }
        return try snapshot(user: UserID(try row.uuid("id")), qrCode: try row.uuid("qr_code_id"), name: PersonName.display(row))
    }

    /// A person's own document.
    static func own(_ user: UserID, in connection: any SQLConnection) async throws -> DocumentSnapshot? {
        guard let row = try await connection.first("SELECT id, first_name, last_name, phone, qr_code_id FROM users WHERE id = \(user)")
        else { return nil }
        return try snapshot(user: user, qrCode: try row.uuid("qr_code_id"), name: PersonName.display(row))
    }

    /// The code a query is allowed to look for: its `qrCodeId == <string>` filter.
    static func code(in query: DocumentQuery) throws(DomainError) -> String {
        let codes = query.filters.compactMap { filter -> String? in
            guard filter.field == "qrCodeId", filter.op == .equal, case .string(let code) = filter.value else { return nil }
            return code
        }
        guard let code = codes.first else {
            throw .forbidden("qr_lookup cannot be listed: query it with qrCodeId == <code> to find that code's owner")
        }
        return code
    }

    /// `query` with its code filters in the documents' spelling (lower case): the original
    /// app wrote `UUID().uuidString`, upper case, and a code is the same code either way.
    static func caseInsensitive(_ query: DocumentQuery) -> DocumentQuery {
        var normalized = query
        normalized.filters = query.filters.map { filter in
            guard filter.field == "qrCodeId", case .string(let code) = filter.value, let uuid = UUID(uuidString: code) else { return filter }
            var lowered = filter
            lowered.value = .string(uuid.uuidString.lowercased())
            return lowered
        }
        return normalized
    }
}
