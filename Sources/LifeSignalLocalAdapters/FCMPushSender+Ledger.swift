import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalFunctions

extension FCMPushSender.Failures: DeliveryOutcomeConvertible {
    /// An unregistered token is dead (the ledger forgets it); anything else FCM refused is
    /// retried, as FCM's own guidance has it for 429 and 5xx.
    public var deliveryOutcome: DeliveryOutcome {
        unregistered.isEmpty ? .transient("FCM refused \(failed) message(s)") : .addressGone("FCM: the token is unregistered")
    }
}
