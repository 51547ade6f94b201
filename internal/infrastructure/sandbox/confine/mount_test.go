package confine
