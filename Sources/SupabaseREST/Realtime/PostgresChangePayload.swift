import Foundation
import RFC3339

/// Reads the payload of a `postgres_changes` message:
/// `{"ids":[…],"data":{"schema","table","commit_timestamp","type","columns","record","old_record","errors"}}`.
///
/// `record` is absent for deletes and `old_record` for inserts; both become empty objects,
/// as in supabase-swift.
enum PostgresChangePayload {
    /// The binding ids the change is for, and the change.
    static func parse(_ message: RealtimeMessageV2) throws(RealtimeError) -> (ids: [Int], action: AnyAction) {
        let ids = message.payload["ids"]?.arrayValue?.compactMap(\.intValue) ?? []
        guard let data = message.payload["data"]?.objectValue else {
            throw .malformedMessage("postgres_changes without a `data` object")
        }
        guard let type = data["type"]?.stringValue else {
            throw .malformedMessage("postgres_changes without a `type`")
        }
        guard let stamp = data["commit_timestamp"]?.stringValue, let timestamp = RFC3339.parse(stamp) else {
            throw .malformedMessage("postgres_changes without a valid `commit_timestamp`")
        }
        let columns = (data["columns"]?.arrayValue ?? []).compactMap { column -> Column? in
            guard let name = column.objectValue?["name"]?.stringValue,
                let type = column.objectValue?["type"]?.stringValue
            else { return nil }
            return Column(name: name, type: type)
        }
        let record = data["record"]?.objectValue ?? [:]
        let oldRecord = data["old_record"]?.objectValue ?? [:]
        let action: AnyAction
        switch type {
        case "INSERT":
            action = .insert(
                InsertAction(columns: columns, commitTimestamp: timestamp, record: record, rawMessage: message))
        case "UPDATE":
            action = .update(
                UpdateAction(
                    columns: columns, commitTimestamp: timestamp, record: record, oldRecord: oldRecord,
                    rawMessage: message))
        case "DELETE":
            action = .delete(
                DeleteAction(columns: columns, commitTimestamp: timestamp, oldRecord: oldRecord, rawMessage: message))
        default:
            throw .malformedMessage("unknown change type \"\(type)\"")
        }
        return (ids, action)
    }
}
