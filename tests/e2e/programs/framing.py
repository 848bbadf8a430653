# What the test servers here share (imported from their own folder).


def read_exact(conn, n):
    """n bytes from socket conn, or None when its peer ends first."""
    buf = bytearray()
    while len(buf) < n:
        chunk = conn.recv(min(n - len(buf), 1 << 20))
        if not chunk:
            return None
        buf += chunk
    return buf
