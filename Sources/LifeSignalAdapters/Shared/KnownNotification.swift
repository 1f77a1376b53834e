import Foundation
import LifeSignalDomain

/// A notification as an app decodes it, or `nil` when the server sent a type this app does not
/// know yet: a newer server adds types, and an older app shows what it knows and skips the rest
/// rather than failing the whole list or stream. Anything else malformed is still an error.
struct KnownNotification: Decodable {
    let record: NotificationRecord?

    private enum TypeKey: String, CodingKey { case type }

    init(from decoder: any Decoder) throws {
        let type = try decoder.container(keyedBy: TypeKey.self).decode(String.self, forKey: .type)
        record = NotificationType(rawValue: type) == nil ? nil : try NotificationRecord(from: decoder)
    }
}
