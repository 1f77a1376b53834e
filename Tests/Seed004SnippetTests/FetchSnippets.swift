import Foundation
import SupabaseREST

/// The seed's "Fetch Operations" and filtering snippets, verbatim inside functions: the
/// snippets refer to an ambient `client`, `searchTerm`, `fromDate`, `toDate` and `status`,
/// which become the struct's property and the functions' parameters.
struct FetchSnippets {
    let client: SupabaseClient

    /// "Non-Deleted Records Filter": the bare fragment, applied to a started query.
    func nonDeleted(_ query: PostgrestFilterBuilder) -> PostgrestFilterBuilder {
        query.is("deleted_at", value: nil)
    }

    /// "Standard Fetch Pattern" — Locations.
    func fetchLocations(searchTerm: String?) async throws -> [Location] {
        var filterQuery =
            client
            .from("locations")
            .select()
            .is("deleted_at", value: nil)

        if let searchTerm = searchTerm, !searchTerm.isEmpty {
            filterQuery = filterQuery.ilike("name", pattern: "%\(searchTerm)%")
        }

        let response: [Location] =
            try await filterQuery
            .order("sort_order", ascending: true)
            .order("name", ascending: true)
            .execute()
            .value
        return response
    }

    /// "Standard Fetch Pattern" — Events, exactly as the seed's Swift snippet has it.
    ///
    /// The snippet contradicts its own contract twice: its "OR logic" comment is followed by a
    /// plain `start_date >= from` (so an event that started before `from` but is still running,
    /// and undated events, are dropped — the TypeScript form keeps both), and it orders by
    /// `start_date, name` where the Sorting section requires `sort_order, start_date`. It is
    /// kept verbatim here; ``fetchEventsPerContract(fromDate:toDate:)`` is the form that
    /// follows the contract.
    func fetchEvents(fromDate: String?, toDate: String?) async throws -> [Event] {
        var filterQuery =
            client
            .from("events")
            .select()
            .is("deleted_at", value: nil)

        if let fromDate = fromDate {
            // Implement OR logic for date filtering
            filterQuery = filterQuery.gte("start_date", value: fromDate)
        }

        if let toDate = toDate {
            filterQuery = filterQuery.lte("start_date", value: toDate)
        }

        let response: [Event] =
            try await filterQuery
            .order("start_date", ascending: true)
            .order("name", ascending: true)
            .execute()
            .value
        return response
    }

    /// The events fetch as the contract specifies it ("Date Range Filter" and "Sorting
    /// Patterns"), the TypeScript snippet's `or(…)` written with the Swift builder.
    func fetchEventsPerContract(fromDate from: String?, toDate to: String?) async throws -> [Event] {
        var filterQuery =
            client
            .from("events")
            .select()
            .is("deleted_at", value: nil)
        if let from {
            filterQuery = filterQuery.or("start_date.gte.\(from),end_date.gte.\(from),and(start_date.is.null,end_date.is.null)")
        }
        if let to {
            filterQuery = filterQuery.lte("start_date", value: to)
        }
        return
            try await filterQuery
            .order("sort_order", ascending: true)
            .order("start_date", ascending: true)
            .execute()
            .value
    }

    /// "Standard Fetch Pattern" — Routes.
    func fetchRoutes(searchTerm: String?) async throws -> [Route] {
        var filterQuery =
            client
            .from("routes")
            .select()
            .is("deleted_at", value: nil)

        if let searchTerm = searchTerm, !searchTerm.isEmpty {
            filterQuery = filterQuery.ilike("name", pattern: "%\(searchTerm)%")
        }

        let response: [Route] =
            try await filterQuery
            .order("sort_order", ascending: true)
            .order("name", ascending: true)
            .execute()
            .value
        return response
    }

    /// "Search Filter" and "Status Filter", applied in turn to a locations query.
    func filteredLocations(searchTerm: String?, status: String?) async throws -> [Location] {
        var filterQuery = client.from("locations").select().is("deleted_at", value: nil)

        if let searchTerm = searchTerm, !searchTerm.isEmpty {
            filterQuery = filterQuery.ilike("name", pattern: "%\(searchTerm)%")
        }

        if let status = status {
            filterQuery = filterQuery.eq("status", value: status)
        }

        return try await filterQuery.order("sort_order", ascending: true).order("name", ascending: true).execute().value
    }

    /// "Standard Error Handling Pattern": the `do`/`catch` around a query, which logs and
    /// re-throws whatever the client threw (a typed ``PostgrestError`` from the server).
    func loadLocations(_ query: PostgrestTransformBuilder) async throws -> [Location] {
        do {
            let response: [Location] = try await query.execute().value
            return response
        } catch {
            print("Error loading locations: \(error)")
            throw error
        }
    }
}
