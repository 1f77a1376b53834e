import Foundation
import SupabaseREST

/// The seed's "Save Operations" and "Delete Operations" snippets, verbatim inside functions
/// (`location` and `id` become parameters).
struct SaveDeleteSnippets {
    let client: SupabaseClient

    /// "Create Pattern" — Locations.
    func createLocation(_ location: Location) async throws -> Location {
        let insertData = LocationInsertData(
            name: location.name,
            slug: location.slug ?? slugify(location.name),
            region: location.region,
            short_description: location.shortDescription,
            website_url: location.websiteUrl.map { normalizeUrl($0) },
            status: location.status.rawValue,
            sort_order: location.sortOrder,
            created_by: location.createdBy
        )

        let response: Location =
            try await client
            .from("locations")
            .insert(insertData)
            .select()
            .single()
            .execute()
            .value
        return response
    }

    /// "Update Pattern" — Locations.
    func updateLocation(_ location: Location) async throws -> Location {
        let updateData = LocationUpdateData(
            name: location.name,
            slug: location.slug ?? slugify(location.name),
            region: location.region,
            short_description: location.shortDescription,
            website_url: location.websiteUrl.map { normalizeUrl($0) },
            status: location.status.rawValue,
            sort_order: location.sortOrder
        )

        let response: Location =
            try await client
            .from("locations")
            .update(updateData)
            .eq("id", value: location.id)
            .select()
            .single()
            .execute()
            .value
        return response
    }

    /// "Upsert Pattern (Create or Update)": the seed gives only the rule — update when the
    /// record exists, else create — so this applies it with the two snippets above.
    func saveLocation(_ location: Location, exists: Bool) async throws -> Location {
        exists ? try await updateLocation(location) : try await createLocation(location)
    }

    /// "Soft Delete Pattern".
    func softDeleteLocation(id: UUID) async throws {
        try await client
            .from("locations")
            .update(["deleted_at": ISO8601DateFormatter().string(from: Date())])
            .eq("id", value: id)
            .execute()
    }
}
