"""The adapters: one package per platform (Telegram, Discord, the console) turning its updates into
commands and the outgoing effects into its calls, and ``common`` for what the chat adapters share."""
