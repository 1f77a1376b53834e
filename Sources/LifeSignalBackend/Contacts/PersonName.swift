import Foundation
import LifeSignalDomain

/// A person's display name: first and last name, or the phone number before onboarding.
enum PersonName {
    static func display(_ row: SQLRow) -> String {
        let name = [row.optionalString("first_name"), row.optionalString("last_name")]
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        return name.isEmpty ? (row.optionalString("phone") ?? "Someone") : name
    }
}
