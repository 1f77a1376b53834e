import ConcurrencyExtras
import Foundation
import LifeSignalDomain

/// The preview client's records: an in-memory table per content kind, following the
/// contract (soft deletes, upsert by id, contract order).
final class PreviewContentStore: Sendable {
    private let records = LockIsolated<[ContentTable: [UUID: any ContentRecord]]>([:])
    private let now: @Sendable () -> Date

    init(now: @escaping @Sendable () -> Date) {
        self.now = now
        let at = now()
        let seed: [(any ContentRecord)?] = [
            try? Location.Draft(
                name: "Fiddletown Cellars", region: "Shenandoah Valley", websiteURL: "fiddletowncellars.example",
                status: .published, sortOrder: 1
            ).stored(id: UUID(), createdBy: nil, createdAt: at, updatedAt: at),
            try? Location.Draft(name: "Old Sugar Mill", region: "Clarksburg", status: .draft, sortOrder: 2)
                .stored(id: UUID(), createdBy: nil, createdAt: at, updatedAt: at),
            try? Event.Draft(
                name: "Harvest Festival", startDate: try? CalendarDay("2027-09-18"), endDate: try? CalendarDay("2027-09-19"),
                startTime: "10:00", keywords: ["wine", "music"], status: .published
            )
            .stored(id: UUID(), createdBy: nil, createdAt: at, updatedAt: at),
            try? Route.Draft(
                name: "Valley Loop", durationMinutes: 120, startPoint: "Plymouth", endPoint: "Fiddletown",
                difficulty: .moderate, status: .published
            )
            .stored(id: UUID(), createdBy: nil, createdAt: at, updatedAt: at),
        ]
        records.withValue { tables in
            for case let record? in seed { tables[type(of: record).table, default: [:]][record.id] = record }
        }
    }

    func list<R: ContentRecord>(_ type: R.Type, admits: (R) -> Bool) -> [R] {
        let all = records.value[R.table, default: [:]].values.compactMap { $0 as? R }
        return ContentRules.sorted(all.filter(admits))
    }

    func save<D: ContentDraft>(_ draft: D) throws -> D.Record {
        let id = draft.id ?? UUID()
        let existing = records.value[D.Record.table]?[id] as? D.Record
        if let existing, existing.deletedAt != nil { throw DomainError.notFound("\(D.Record.table.noun) \(id)") }
        let at = now()
        let record = try draft.stored(id: id, createdBy: existing?.createdBy, createdAt: existing?.createdAt ?? at, updatedAt: at)
        records.withValue { $0[D.Record.table, default: [:]][id] = record }
        return record
    }

    func delete<R: ContentRecord>(_ type: R.Type, id: UUID) throws {
        guard let existing = records.value[R.table]?[id] as? R, existing.deletedAt == nil else {
            throw DomainError.notFound("\(R.table.noun) \(id)")
        }
        let deleted = try existing.draft.stored(
            id: id, createdBy: existing.createdBy, createdAt: existing.createdAt, updatedAt: now(), deletedAt: now())
        records.withValue { $0[R.table, default: [:]][id] = deleted }
    }
}
