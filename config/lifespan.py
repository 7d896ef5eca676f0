"""The server's start and stop (ASGI lifespan messages)."""


async def lifespan(scope, receive, send):
    """Django is loaded when the application module is imported, so there is nothing to
    start; the server is told so and starts without a warning. Nothing to stop either: the
    database pool and Redis connections end with the process."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return
