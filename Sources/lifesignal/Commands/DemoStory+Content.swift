import Clocks
import Dependencies
import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFeatures
import LifeSignalFunctions
import LifeSignalLocalAdapters

extension DemoStory {
    /// Seed `004_…`'s content queries, through the content admin screen's reducer: create,
    /// search, filter by status and by a day window, edit, soft delete.
    func content(adapters: LocalAdapters) async throws {
        say("\nAlice also keeps the valley guide: locations, events and routes (seed 004's queries).")
        // Only editors write content; an operator makes someone one with the service role.
        guard let alice = await adapters.sessions.session?.userID,
            try await backend.auth.updateAppMetadata(of: alice, merging: #"{"role":"editor"}"#) != nil
        else { throw DomainError.internal("Alice is not signed in") }
        say("  The operator makes her a content editor (app_metadata.role = \"editor\"); others read published entries only.")
        let content = adapters.contentClient
        let admin = Store(initialState: ContentAdminFeature.State(), reducer: { ContentAdminFeature() }) {
            $0.contentClient = content
            // Typing waits for a pause on this clock; the demo types whole words at once.
            $0.continuousClock = ImmediateClock()
        }
        func add(_ editor: ContentEditor) async throws {
            await admin.send(.newTapped).finish()
            await admin.send(.editorChanged(editor)).finish()
            await admin.send(.saveTapped).finish()
            if let error = admin.state.errorMessage { throw DomainError.internal(error) }
        }
        for draft: Location.Draft in [
            .init(name: "Fiddletown Cellars", region: "Shenandoah Valley", websiteURL: "fiddletowncellars.example", status: .published, sortOrder: 1),
            .init(name: "Old Sugar Mill", region: "Clarksburg", status: .published, sortOrder: 2),
            .init(name: "Cellar Door Café", region: "Plymouth", status: .draft, sortOrder: 2),
        ] { try await add(.location(draft)) }
        await admin.send(.task).finish()
        say("  Locations, by sort order then name: \(admin.state.listing?.names.joined(separator: ", ") ?? "none")")
        if case .locations(let records) = admin.state.listing, let first = records.first {
            say("  The first one's slug is \"\(first.slug)\" and its site \(first.websiteURL ?? "none") (https added).")
        }
        await admin.send(.searchChanged("  CELLAR ")).finish()
        say("  Searching \"  CELLAR \" (any case): \(admin.state.listing?.names.joined(separator: ", ") ?? "none")")
        await admin.send(.statusFilterChanged(.published)).finish()
        say("  …and only published: \(admin.state.listing?.names.joined(separator: ", ") ?? "none")")

        await admin.send(.tabSelected(.events)).finish()
        await admin.send(.searchChanged("")).finish()
        await admin.send(.statusFilterChanged(nil)).finish()
        let day = { (text: String) in try CalendarDay(text) }
        for draft: Event.Draft in [
            .init(name: "Harvest Festival", startDate: try day("2027-09-18"), endDate: try day("2027-09-19"), keywords: ["wine", "music"]),
            .init(name: "New Year Run", startDate: try day("2026-12-30"), endDate: try day("2027-01-02")),
            .init(name: "Spring Barrel Tasting", startDate: try day("2027-04-10")),
            .init(name: "Whenever Picnic"),
        ] { try await add(.event(draft)) }
        say("  Events, by sort order then start day (undated last): \(admin.state.listing?.names.joined(separator: ", ") ?? "none")")
        await admin.send(.dayWindowChanged(from: try day("2027-01-01"), to: nil)).finish()
        say("  From 2027-01-01 (starting or ending then or later, or undated): \(admin.state.listing?.names.joined(separator: ", ") ?? "none")")
        await admin.send(.dayWindowChanged(from: try day("2027-01-01"), to: try day("2027-06-30"))).finish()
        say("  …up to 2027-06-30 (starting by then): \(admin.state.listing?.names.joined(separator: ", ") ?? "none")")

        await admin.send(.tabSelected(.routes)).finish()
        try await add(.route(.init(name: "Valley Loop", durationMinutes: 120, startPoint: "Plymouth", endPoint: "Fiddletown", difficulty: .moderate)))
        try await add(.route(.init(name: "River Walk", durationMinutes: 45)))
        guard case .routes(let routes) = admin.state.listing, let loop = routes.first(where: { $0.name == "Valley Loop" }) else {
            throw DomainError.internal("the routes did not load")
        }
        await admin.send(.editTapped(loop.id)).finish()
        if case .route(var draft) = admin.state.editor {
            draft.name = "Valley Loop (long)"
            draft.slug = nil
            await admin.send(.editorChanged(.route(draft))).finish()
        }
        await admin.send(.saveTapped).finish()
        say("  Routes after renaming one: \(admin.state.listing?.names.joined(separator: ", ") ?? "none")")
        await admin.send(.deleteTapped(loop.id)).finish()
        say("  She deletes \"\(admin.state.pendingDelete?.name ?? "?")\" and confirms.")
        await admin.send(.deleteConfirmed).finish()
        say("  Routes now: \(admin.state.listing?.names.joined(separator: ", ") ?? "none") — the deleted one is kept with deleted_at set, and hidden.")
    }
}
