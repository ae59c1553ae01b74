package segment

// The record of verified versions, for the external tests.
var (
	LoadStamps     = loadStamps
	PartStampKey   = partStampKey
	RegionIdentity = regionIdentity
)

func (s *stamps) VerifiedAs(key, id string) bool { return s.verifiedAs(key, id) }
