import ArgumentParser
import Foundation
import LifeSignalClients
import LifeSignalDomain

extension ContentStatus: ExpressibleByArgument {}
extension RouteDifficulty: ExpressibleByArgument {}

extension CalendarDay: ExpressibleByArgument {
    public init?(argument: String) { try? self.init(argument) }
}

extension UUID: @retroactive ExpressibleByArgument {
    public init?(argument: String) { self.init(uuidString: argument) }
}

/// The draft fields every content table has, so one set of options edits all three.
protocol CommonDraft {
    var name: String { get set }
    var slug: String? { get set }
    var status: ContentStatus { get set }
    var sortOrder: Int { get set }
}

extension Location.Draft: CommonDraft {}
extension Event.Draft: CommonDraft {}
extension Route.Draft: CommonDraft {}

/// `--search`, `--status` (and for events `--from`, `--to`): the contract's filters.
struct ListOptions: ParsableArguments {
    @Option(help: "Only names containing this, in any case.")
    var search: String?
    @Option(help: "Only this status: draft, published or archived.")
    var status: ContentStatus?

    var filter: ContentFilter { ContentFilter(search: search, status: status) }
}

/// The fields of every table; on `edit` only the ones given change.
struct CommonFields: ParsableArguments {
    @Option(help: "The name (required to add).")
    var name: String?
    @Option(help: "The URL slug (default: made from the name).")
    var slug: String?
    @Option(help: "draft, published or archived.")
    var status: ContentStatus?
    @Option(name: .customLong("sort-order"), help: "Lower numbers list first.")
    var sortOrder: Int?

    func apply(to draft: inout some CommonDraft) {
        if let name { draft.name = name }
        if let slug { draft.slug = slug.isEmpty ? nil : slug }
        if let status { draft.status = status }
        if let sortOrder { draft.sortOrder = sortOrder }
    }

    func requiredName() throws -> String {
        guard let name else { throw ValidationError("--name is required to add a record") }
        return name
    }
}

/// An optional text option: given empty, it clears the field.
func applied(_ value: String?, to field: inout String?) {
    guard let value else { return }
    field = value.isEmpty ? nil : value
}

/// How records are printed: one line each, or JSON.
enum ContentPrinter {
    static func print<R: ContentRecord>(_ records: [R], json: Bool) throws {
        if json { return try CommandOutput.json(records) }
        if records.isEmpty { Swift.print("No \(R.table.rawValue).") }
        for record in records { Swift.print(line(record)) }
    }

    static func print(_ record: some ContentRecord, verb: String, json: Bool) throws {
        if json { return try CommandOutput.json(record) }
        Swift.print("\(verb) \(line(record))")
    }

    static func line(_ record: some ContentRecord) -> String {
        var parts = ["\(record.name) [\(record.status.rawValue)]", "slug \(record.slug)", "order \(record.sortOrder)"]
        switch record {
        case let location as Location:
            if let region = location.region { parts.append(region) }
            if let site = location.websiteURL { parts.append(site) }
        case let event as Event:
            if let start = event.startDate {
                parts.append(event.endDate.map { "\(start) to \($0)" } ?? "\(start)")
            } else {
                parts.append("undated")
            }
            if !event.keywords.isEmpty { parts.append("keywords: " + event.keywords.joined(separator: ", ")) }
        case let route as Route:
            parts.append(route.difficulty.rawValue)
            if let minutes = route.durationMinutes { parts.append("\(minutes) min") }
        default: break
        }
        return parts.joined(separator: " · ") + "  (\(record.id.uuidString.lowercased()))"
    }
}
