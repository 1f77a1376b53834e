import Foundation
import LifeSignalClients
import LifeSignalDomain
import SupabaseREST

extension SupabaseAdapters {
    /// Content through PostgREST, with seed `004_…`'s queries as the seed writes them. The
    /// tables' policies (anyone reads, creators change) are enforced by the server; the
    /// adapter reads a record's owner first only to report someone else's record as
    /// ``DomainError/forbidden(_:)`` rather than as missing, as the local adapter does.
    public var contentClient: ContentClient {
        let content = SupabaseContent(client: client)
        return ContentClient(
            locations: { try await content.fetch(Location.self, filter: $0) },
            saveLocation: { try await content.save($0) },
            deleteLocation: { try await content.softDelete(Location.self, id: $0) },
            events: { try await content.fetch(Event.self, filter: $0.common, from: $0.from, to: $0.to) },
            saveEvent: { try await content.save($0) },
            deleteEvent: { try await content.softDelete(Event.self, id: $0) },
            routes: { try await content.fetch(Route.self, filter: $0) },
            saveRoute: { try await content.save($0) },
            deleteRoute: { try await content.softDelete(Route.self, id: $0) })
    }
}

/// The content contract's queries over one Supabase client.
struct SupabaseContent: Sendable {
    let client: SupabaseClient
    /// Supabase answers at most 1,000 rows a request by default (`max_rows`); larger tables
    /// are read page by page with `range`, as the contract's pagination note plans.
    var pageSize = 1000

    /// The contract's fetch, every page of it.
    func fetch<R: ContentRecord>(_ type: R.Type, filter: ContentFilter, from: CalendarDay? = nil, to: CalendarDay? = nil) async throws -> [R] {
        try await SupabaseAdapters.mapped {
            var records: [R] = []
            while true {
                // The contract's first filter, before any other.
                var query = client.from(R.table.rawValue).select().is("deleted_at", value: nil)
                if let term = ContentRules.searchTerm(filter.search) {
                    query = query.ilike("name", pattern: ContentRules.likePattern(term))
                }
                if let status = filter.status { query = query.eq("status", value: status.rawValue) }
                if let from { query = query.or("start_date.gte.\(from),end_date.gte.\(from),and(start_date.is.null,end_date.is.null)") }
                if let to { query = query.lte("start_date", value: to.description) }
                var ordered = query.order("sort_order", ascending: true)
                if R.table == .events { ordered = ordered.order("start_date", ascending: true) }
                // Name, then id: a total order, so consecutive pages neither overlap nor skip.
                let page: [R] = try await ordered.order("name", ascending: true).order("id", ascending: true)
                    .range(from: records.count, to: records.count + pageSize - 1)
                    .execute().value
                records += page
                if page.count < pageSize { return records }
            }
        }
    }

    /// The contract's upsert: update when the id names an existing record, create otherwise.
    func save<D: ContentDraft>(_ draft: D) async throws -> D.Record {
        let table = D.Record.table
        let columns = try draft.columns()
        return try await SupabaseAdapters.mapped {
            let userID = try await client.auth.session.user.id
            do {
                if let id = draft.id, try await owned(table, id: id, by: userID) {
                    return try await client.from(table.rawValue).update(columns)
                        .eq("id", value: id.uuidString.lowercased()).is("deleted_at", value: nil)
                        .select().single().execute().value
                }
                var row = columns
                row["id"] = .uuid(draft.id ?? UUID())
                row["created_by"] = .uuid(userID)
                return try await client.from(table.rawValue).insert(row).select().single().execute().value
            } catch let error as PostgrestError where error.code == "23505" {
                throw ContentRules.slugTaken(table, columns: columns)
            } catch let error as PostgrestError where error.code == "42501" {
                throw Self.editorsOnly(table)
            }
        }
    }

    /// Over PostgREST only content editors write (docs/security.md, "Content"); the server's
    /// "permission denied" says nothing of how to become one.
    static func editorsOnly(_ table: ContentTable) -> DomainError {
        ContentRules.notEditor(table)
    }

    /// The contract's soft delete: `deleted_at` set to now in ISO 8601, the row kept.
    func softDelete<R: ContentRecord>(_ type: R.Type, id: UUID) async throws {
        try await SupabaseAdapters.mapped {
            let userID = try await client.auth.session.user.id
            let owns: Bool
            do { owns = try await owned(R.table, id: id, by: userID) } catch let error as PostgrestError where error.code == "42501" {
                throw Self.editorsOnly(R.table)
            }
            guard owns else { throw DomainError.notFound("\(R.table.noun) \(id)") }
            let deleted: [OwnerRow] = try await client.from(R.table.rawValue)
                .update(["deleted_at": ContentValue.instant(Date())])
                .eq("id", value: id.uuidString.lowercased()).is("deleted_at", value: nil)
                .select("created_by,deleted_at").execute().value
            // Deleted between the check and the update (by another tab, say).
            guard !deleted.isEmpty else { throw DomainError.notFound("\(R.table.noun) \(id)") }
        }
    }

    /// Whether the record exists and `userID` may change it; throws for a deleted record or
    /// someone else's. An editor reads every row, deleted ones and `created_by` included; for
    /// anyone else naming `created_by` is PostgREST's 42501.
    private func owned(_ table: ContentTable, id: UUID, by userID: UUID) async throws -> Bool {
        let rows: [OwnerRow] = try await client.from(table.rawValue).select("created_by,deleted_at")
            .eq("id", value: id.uuidString.lowercased()).execute().value
        guard let row = rows.first else { return false }
        if row.deletedAt != nil { throw DomainError.notFound("\(table.noun) \(id)") }
        guard row.createdBy == userID else {
            throw ContentRules.notCreator(table)
        }
        return true
    }

    struct OwnerRow: Decodable {
        var createdBy: UUID?
        var deletedAt: Date?

        enum CodingKeys: String, CodingKey {
            case createdBy = "created_by"
            case deletedAt = "deleted_at"
        }
    }
}
