// EventSource placeholder
