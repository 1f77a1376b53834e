import Foundation
import LifeSignalBackend
import LifeSignalDomain

/// A known bucket's limits, checked before any byte is sent.
///
/// Every backend enforces them, but in its own words: Supabase answers 413/415, Firebase's
/// security rules a bare 403. Checking first gives one answer everywhere,
/// ``DomainError/invalidArgument(_:)``, and spares uploading 5 MB only to be refused.
enum FileRules {
    static func validate(bucket: String, data: Data, contentType: String) throws(DomainError) {
        // An unknown bucket is the server's to refuse (not found).
        guard let rules = StorageBucket.named(bucket) else { return }
        guard data.count <= rules.maximumBytes else { throw .invalidArgument("The file is larger than \(rules.maximumBytes) bytes") }
        guard rules.accepts(contentType) else {
            throw .invalidArgument("Files of type \(contentType) are not accepted here")
        }
    }
}
