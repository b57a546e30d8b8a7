import SwiftDBAI

extension LanguageModelSpecifier {
    /// How a ``ChatEngine`` best asks this provider for SQL: plain text for the servers that
    /// usually run the model on the same machine (`openai-compatible`, `ollama`), where holding
    /// the answer to a JSON schema costs a CPU model a second or more per answer and the bare
    /// statement is fewer tokens to write; ``ChatConfiguration/SQLOutputMode/automatic``
    /// (structured output) for the hosted providers. Measured with Qwen2.5-Coder-1.5B on
    /// llama.cpp, 2 cores: the same accuracy, median 4.1 s instead of 5.3 s per Chinook question.
    public var preferredSQLOutput: ChatConfiguration.SQLOutputMode {
        switch provider {
        case .openAICompatible, .ollama: .text
        case .openAI, .anthropic, .gemini: .automatic
        }
    }
}
