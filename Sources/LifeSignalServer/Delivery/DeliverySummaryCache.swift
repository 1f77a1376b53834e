import Foundation
import LifeSignalBackend

/// The delivery ledger's summary for `/metrics`, read at most once per ``maximumAge``.
///
/// `/metrics` answers without a key, and the summary counts every row of the last seven days:
/// read per scrape, a stranger could keep the database counting. Scrapers come every 15 s or
/// so, and concurrent scrapes share one read.
actor DeliverySummaryCache {
    private let backend: LifeSignalBackend
    private let maximumAge: Duration
    private var last: (at: ContinuousClock.Instant, summary: DeliverySummary)?
    private var reading: Task<DeliverySummary?, Never>?

    init(backend: LifeSignalBackend, maximumAge: Duration) {
        self.backend = backend
        self.maximumAge = maximumAge
    }

    /// The latest summary; the previous one when the ledger cannot be read now (the scrape
    /// still answers), `nil` before any could be.
    func current() async -> DeliverySummary? {
        if let last, ContinuousClock.now - last.at < maximumAge { return last.summary }
        if let reading { return await reading.value ?? last?.summary }
        let backend = backend
        let task = Task { try? await backend.deliveries.summary() }
        reading = task
        let summary = await task.value
        reading = nil
        if let summary { last = (ContinuousClock.now, summary) }
        return summary ?? last?.summary
    }
}
