import Foundation
import LifeSignalDomain

/// A known bucket's limits, checked before any byte is sent.
///
/// Every backend enforces them, but in its own words: Supabase answers 413/415, Firebase's
/// security rules a bare 403. Checking first gives one answer everywhere,
/// ``DomainError/invalidArgument(_:)``, and spares uploading 5 MB only to be refused.
package enum FileRules {
    package static func validate(bucket: String, data: Data, contentType: String) throws(DomainError) {
        // An unknown bucket is the server's to refuse (not found).
        guard let rules = StorageBucket.named(bucket) else { return }
        guard data.count <= rules.maximumBytes else { throw .invalidArgument("The file is larger than \(rules.maximumBytes) bytes") }
        guard rules.accepts(contentType) else {
            throw .invalidArgument("Files of type \(contentType) are not accepted here")
        }
        // The bytes, as the storage server judges them: Firebase Storage's rules cannot read
        // them at all. The pixel limit is the server's setting, so it is left to the server.
        let anySize = ImageLimits(maximumWidth: .max, maximumHeight: .max)
        guard ImageFormat(declared: contentType) != nil else { throw .invalidArgument("Files of type \(contentType) are not accepted here") }
        do throws(ImageRejection) { _ = try ImageSniffer.check(data, declared: contentType, limits: anySize) } catch {
            throw .invalidArgument(error.message)
        }
    }
}
