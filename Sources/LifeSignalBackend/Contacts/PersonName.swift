import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// A person's display name: first and last name, or the phone number before onboarding.
enum PersonName {
    static func display(_ row: SQLRow) -> String { display(row, prefix: "") }

    /// The same from columns named `<prefix>first_name`, `<prefix>last_name`, `<prefix>phone`
    /// (a statement that joins two people).
    static func display(_ row: SQLRow, prefix: String) -> String {
        let name = [row.optionalString(prefix + "first_name"), row.optionalString(prefix + "last_name")]
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        return name.isEmpty ? (row.optionalString(prefix + "phone") ?? "Someone") : name
    }
}
