import LifeSignalDomain

extension DomainError {
    /// The domain error behind any error a client throws.
    ///
    /// Adapters are meant to map every failure to a ``DomainError`` (the design rule "Errors are
    /// mapped at each boundary"); anything else that leaks through still has to reach the
    /// person as a message, so it becomes `.internal` rather than being dropped.
    init(_ error: any Error) {
        self = (error as? DomainError) ?? .internal(String(describing: error))
    }
}
