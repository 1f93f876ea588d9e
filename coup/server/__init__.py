"""coup.server"""
