import Foundation
import LifeSignalDomain

/// A page of one device's inbox: messages oldest first, and the cursor to ask after next.
public struct DeviceMessagePage: Sendable, Hashable {
    public var messages: [RemoteMessage]
    /// The last message's place in the inbox, or the cursor asked after when there was none.
    public var cursor: Int

    public init(messages: [RemoteMessage], cursor: Int) {
        self.messages = messages
        self.cursor = cursor
    }
}
