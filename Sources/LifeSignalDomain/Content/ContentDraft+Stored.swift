import Foundation
import RFC3339

extension ContentDraft {
    /// The record this draft becomes once stored under `id`: the same validation and
    /// normalisation as a save on any backend, without one. In-memory clients and tests use it.
    public func stored(id: UUID, createdBy: UUID?, createdAt: Date, updatedAt: Date, deletedAt: Date? = nil) throws -> Record {
        var columns = try columns()
        columns["id"] = .uuid(id)
        columns["created_by"] = createdBy.map(ContentValue.uuid) ?? .null
        columns["created_at"] = .instant(createdAt)
        columns["updated_at"] = .instant(updatedAt)
        columns["deleted_at"] = deletedAt.map(ContentValue.instant) ?? .null
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = RFC3339.parse(text, .strict) else {
                throw DecodingError.dataCorruptedError(in: try decoder.singleValueContainer(), debugDescription: "\"\(text)\" is not an RFC 3339 timestamp")
            }
            return date
        }
        do {
            return try decoder.decode(Record.self, from: JSONEncoder().encode(columns))
        } catch {
            throw DomainError.internal("\(Record.table.noun) draft does not make a record: \(error)")
        }
    }
}
