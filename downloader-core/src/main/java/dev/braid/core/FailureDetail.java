package dev.braid.core;

/**
 * What a failure of a {@link FailureKind} was more precisely, where Braid knows it: the
 * distinctions aria2's error codes make (a timeout and a refused connection are both
 * {@link FailureKind#NETWORK}). Kept in the state database with the kind, so it survives a restart.
 */
public enum FailureDetail {
  /** Nothing finer than the kind is known. */
  NONE,
  /** {@link FailureKind#NETWORK}: a connect, first-byte or read timeout. */
  TIMEOUT,
  /** {@link FailureKind#NETWORK}: the download's deadline passed (a bound the user set: never waited out). */
  DEADLINE,
  /** {@link FailureKind#NETWORK}: the host name could not be resolved. */
  NAME_RESOLUTION,
  /** {@link FailureKind#NETWORK}: a proxy refused its credentials ({@link ProxyAuthenticationException}). */
  PROXY_AUTH,
  /** {@link FailureKind#HTTP_STATUS}: redirects were refused: a loop, too many, or https to http ({@link RedirectRefusedException}). */
  REDIRECT,
  /** {@link FailureKind#LOCAL_IO}: the folder has too little free space for what is still missing, found before the download or when a write failed. */
  DISK_FULL,
  /** {@link FailureKind#LOCAL_IO}: the target file exists and overwriting was not asked for. */
  FILE_EXISTS,
  /** {@link FailureKind#LOCAL_IO}: the target's folder could not be created. */
  FOLDER,
  /** {@link FailureKind#LOCAL_IO}: another Braid process is downloading the same file. */
  IN_USE,
  /** {@link FailureKind#INTEGRITY}: the file's checksum, or a piece's hash, did not match. */
  CHECKSUM
}
