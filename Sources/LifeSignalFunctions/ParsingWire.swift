import Foundation
import LifeSignalDomain

/// `{"success": true}`, the reply of functions that return nothing else.
public struct SuccessResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public init(success: Bool = true) { self.success = success }
}
